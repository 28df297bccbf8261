package agentstate_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/internal/importcheck"
)

// TestImportBoundary: no impure package (the actor system, storage,
// logging, clocks, processes, the network) is reachable from agentstate in
// go list -deps. The data types it takes from providers and the tools
// come from their leaf packages (providers/llm, tools/exec/execspec,
// tools/task/taskspec, tools/worktree/worktreespec).
func TestImportBoundary(t *testing.T) {
	importcheck.Check(t, "github.com/holon-actors/holon-actors/actors/agentstate", importcheck.Impure)
}
