package actors_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestCrashRecoveryLeavesSettledAgentsDormant: after a crash (no snapshot
// saved, SnapshotEvery far away) an agent that had settled stays dormant on
// its stream header: Recover activates only the agent with an open fact
// and the one whose journal moved past its header, List describes the
// dormant ones without activating them, and a dormant agent wakes on its
// next prompt with its history intact.
func TestCrashRecoveryLeavesSettledAgentsDormant(t *testing.T) {
	h := testkit.New(t, testkit.Reply("one"), testkit.Reply("two"), testkit.Reply("three"), testkit.Reply("four"))
	ctx := context.Background()
	for _, id := range []string{"a", "b", "moved"} {
		h.Prompt(id, "hello")
		h.WaitEvent(id, testkit.NthOfType(messages.EventAgentStateChanged, 3))
		if _, err := h.Runtime.State(ctx, id); err != nil { // behind the settling step
			t.Fatal(err)
		}
	}
	if _, err := h.Runtime.Control(ctx, "busy", actors.OpPause, ""); err != nil {
		t.Fatal(err)
	}
	h.Prompt("busy", "queued while paused") // an open fact: a queued message
	// An event written behind the agent's back: its header is stale now.
	note := messages.AgentStateChanged{From: messages.StatusAwakeIdle, To: messages.StatusAwakeIdle, Reason: "test"}
	ev, err := messages.NewEvent("moved", h.Clock.Now(), note)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Runtime.Halt(); err != nil { // nothing saved, as in a crash
		t.Fatal(err)
	}
	if _, err := h.Store().Append(ctx, "moved", []messages.Event{ev}); err != nil {
		t.Fatal(err)
	}

	active := h.Restart()
	if want := []string{"busy"}; !reflect.DeepEqual(active, want) {
		t.Fatalf("Recover after a crash: open %v, want [busy]", active)
	}
	if got, want := h.Runtime.Active(), []string{"busy", "moved"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Active() after a crash = %v, want %v (a and b dormant on their headers)", got, want)
	}
	list, err := h.Runtime.List(ctx)
	if err != nil || len(list) != 4 || list[0].ID != "a" || list[0].Status != messages.StatusAwakeIdle || list[0].Active {
		t.Fatalf("List() = %+v, %v; want a, b, busy, moved with a dormant and idle", list, err)
	}
	if got := h.Runtime.Active(); len(got) != 2 {
		t.Fatalf("List activated agents: Active() = %v", got)
	}
	h.Prompt("a", "again")
	h.WaitEvent("a", testkit.NthOfType(messages.EventTurnTerminal, 2))
	reqs := h.Provider.Requests()
	if conv := reqs[len(reqs)-1].Conversation; len(conv) != 3 || conv[0].Text != "hello" || conv[2].Text != "again" {
		t.Fatalf("the woken agent saw %+v, want its first turn then the new prompt", conv)
	}
}
