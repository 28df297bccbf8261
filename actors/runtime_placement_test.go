package actors_test

import (
	"context"
	"errors"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestPlacementRefusesUnplacedActivation: a cluster node's runtime
// activates only the agents the cluster placed on it. A request for any
// other is refused with ErrNotPlaced and journals nothing (no
// agent_activated that would fence out the node the agent is placed on);
// once placed, the agent is activated and journals its node.
func TestPlacementRefusesUnplacedActivation(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Steps: []testkit.Step{testkit.Reply("done")},
		Deps: func(_ string, d *actors.AgentDeps) { d.Node = "n1" }})
	rt := h.Runtime
	ctx := context.Background()
	rt.RequirePlacement()

	if _, err := rt.Admit(ctx, h.Envelope("elsewhere", "hi", messages.PriorityNormal)); !errors.Is(err, actors.ErrNotPlaced) {
		t.Fatalf("admit to an unplaced agent = %v, want ErrNotPlaced", err)
	}
	if err := rt.Activate(ctx, "elsewhere"); !errors.Is(err, actors.ErrNotPlaced) {
		t.Fatalf("activate an unplaced agent = %v, want ErrNotPlaced", err)
	}
	if evs := h.Events("elsewhere"); len(evs) != 0 {
		t.Fatalf("an unplaced agent journaled %d events", len(evs))
	}

	rt.Place("elsewhere")
	h.Prompt("elsewhere", "now placed here")
	var nodes []string
	for _, ev := range h.Events("elsewhere") {
		if p, err := ev.Decode(); err == nil {
			if a, ok := p.(messages.AgentActivated); ok {
				nodes = append(nodes, a.Node)
			}
		}
	}
	if len(nodes) != 1 || nodes[0] != "n1" {
		t.Fatalf("agent_activated of the placed agent: %v, want [n1]", nodes)
	}
	if key := rt.PlacementKey("elsewhere"); key != "elsewhere" {
		t.Errorf("PlacementKey of a plain agent = %q", key)
	}
}

// TestPlacementListsAgentsActiveElsewhere: a cluster node lists every
// agent of the shared journal; one active on another node (its journal
// past any header or snapshot) is described without activating it here.
func TestPlacementListsAgentsActiveElsewhere(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Steps: []testkit.Step{testkit.Reply("done")},
		Deps: func(_ string, d *actors.AgentDeps) { d.Node = "n1" }})
	rt := h.Runtime
	ctx := context.Background()
	rt.RequirePlacement()
	var evs []messages.Event
	for _, p := range []messages.Payload{
		messages.AgentCreated{AgentID: "ghost", Kind: messages.AgentNamed, Visibility: messages.VisibilityPublic,
			Ownership: messages.OwnershipSelfOwned, ProfilePreset: "public_named"},
		messages.AgentActivated{Node: "n2", Activation: "act_1"},
	} {
		ev, err := messages.NewEvent("ghost", h.Clock.Now(), p)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	if _, err := h.Store().Append(ctx, "ghost", evs); err != nil {
		t.Fatal(err)
	}
	all, err := rt.List(ctx)
	if err != nil {
		t.Fatalf("list with an agent active on another node: %v", err)
	}
	var ids []string
	for _, in := range all {
		ids = append(ids, in.ID)
	}
	if len(ids) != 1 || ids[0] != "ghost" {
		t.Fatalf("listed %v, want [ghost]", ids)
	}
	if active := rt.Active(); len(active) != 0 {
		t.Fatalf("listing activated %v here", active)
	}
}
