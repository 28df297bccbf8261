package agentstate_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/internal/importcheck"
)

// notYetSplit are packages of this module agentstate takes data types from
// (providers.Item, exec.Launch, task.CommandRecord, worktree.Info) whose
// packages also hold I/O code. What they import is not agentstate's; each
// leaves this list when its data types get a package of their own.
var notYetSplit = []string{
	"github.com/holon-actors/holon-actors/providers",
	"github.com/holon-actors/holon-actors/tools/exec",
	"github.com/holon-actors/holon-actors/tools/task",
	"github.com/holon-actors/holon-actors/tools/worktree",
}

// TestImportBoundary: no impure package is reachable from agentstate in
// go list -deps, except through a package of notYetSplit; and every
// package of notYetSplit is still imported (else it leaves the list).
func TestImportBoundary(t *testing.T) {
	importcheck.Check(t, "github.com/holon-actors/holon-actors/actors/agentstate", importcheck.Impure, notYetSplit)
}
