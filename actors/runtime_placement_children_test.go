package actors_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools/task"
)

// TestPlacementKeepsChildrenWithTheirParent: on a cluster node where only
// the parent is placed, the parent's private child runs (its parent's
// activation spawns it; the placement guard does not refuse it), and the
// cluster places requests for the child by the parent's id.
func TestPlacementKeepsChildrenWithTheirParent(t *testing.T) {
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("Delegating.", spawnCall("s1", "Compute 6*7 and report the number.")),
			testkit.Reply("The child is on it."),
			testkit.Reply("The child says 42; done."),
		},
		[]testkit.Step{testkit.Reply("42")},
		func(_ string, d *actors.AgentDeps) { d.Node = "n1" },
	)
	f.Runtime.RequirePlacement()
	f.Runtime.Place("main")
	f.Prompt("main", "Find 6*7 with a helper.")
	res := spawned(t, f.Harness, "main", "s1")
	if end := taskEnded(t, f.Harness, "main", res.SupervisionTaskID); end.Status != task.StatusCompleted {
		t.Fatalf("the child's task ended %s under placement", end.Status)
	}
	if key := f.Runtime.PlacementKey(res.ChildAgentID); key != "main" {
		t.Fatalf("PlacementKey(child) = %q, want its parent main", key)
	}
}
