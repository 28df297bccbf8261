package runtimetools_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/internal/importcheck"
)

// TestImportBoundary: no impure package is reachable from runtimetools in
// go list -deps, except through the packages whose data types agentstate
// takes (see agentstate's boundary test); each is still imported.
func TestImportBoundary(t *testing.T) {
	importcheck.Check(t, "github.com/holon-actors/holon-actors/actors/runtimetools", importcheck.Impure, []string{
		"github.com/holon-actors/holon-actors/providers",
		"github.com/holon-actors/holon-actors/tools/exec",
		"github.com/holon-actors/holon-actors/tools/task",
		"github.com/holon-actors/holon-actors/tools/worktree",
	})
}
