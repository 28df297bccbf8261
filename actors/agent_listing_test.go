package actors_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestListNeverActivatesDormantAgents: after a crash (no snapshot saved) a
// runtime's settled agents are dormant on their stream headers, one of
// them paused; then one journal moves behind the runtime's back, so its
// header is no longer current and it has no snapshot. List describes every
// agent with its state, from its header, and activates none of them (the
// stale one used to be activated and replayed to answer).
func TestListNeverActivatesDormantAgents(t *testing.T) {
	const n = 5
	var steps []testkit.Step
	for i := range n {
		steps = append(steps, testkit.Reply(fmt.Sprintf("answer %d", i)))
	}
	h := testkit.New(t, steps...)
	ctx := context.Background()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("agent-%d", i)
		h.Prompt(ids[i], "hello")
		h.WaitEvent(ids[i], testkit.NthOfType(messages.EventAgentStateChanged, 3))
		if _, err := h.Runtime.State(ctx, ids[i]); err != nil { // behind the settling step
			t.Fatal(err)
		}
	}
	paused := ids[n-1]
	if _, err := h.Runtime.Control(ctx, paused, actors.OpPause, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Runtime.State(ctx, paused); err != nil {
		t.Fatal(err)
	}
	if err := h.Runtime.Halt(); err != nil { // nothing saved, as in a crash
		t.Fatal(err)
	}
	h.Restart()
	before := h.Runtime.Active()

	stale := ids[0]
	note := messages.AgentStateChanged{From: messages.StatusAwakeIdle, To: messages.StatusAwakeIdle, Reason: "test"}
	ev, err := messages.NewEvent(stale, h.Clock.Now(), note)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Store().Append(ctx, stale, []messages.Event{ev}); err != nil {
		t.Fatal(err)
	}

	list, err := h.Runtime.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after := h.Runtime.Active(); !reflect.DeepEqual(after, before) {
		t.Fatalf("List activated agents: Active() = %v before, %v after", before, after)
	}
	if len(list) != n {
		t.Fatalf("List() = %+v, want %d agents", list, n)
	}
	for i, in := range list {
		want := messages.StatusAwakeIdle
		if in.ID == paused {
			want = messages.StatusPaused
		}
		if in.ID != ids[i] || in.Status != want || in.Active || in.LastSeq == 0 {
			t.Errorf("List()[%d] = %s %s active=%v last_seq=%d, want %s %s dormant", i, in.ID, in.Status, in.Active, in.LastSeq, ids[i], want)
		}
	}
	high, err := h.Store().HighestSeq(ctx, stale)
	if err != nil {
		t.Fatal(err)
	}
	if list[0].LastSeq >= high {
		t.Errorf("the stale agent's listing is at seq %d, want below its journal's %d (as of its header)", list[0].LastSeq, high)
	}
}

// TestListReadsAChangedHeaderAgain: a listing keeps the info it decoded
// from each dormant agent's stream header, and an agent that ran and was
// passivated again between two listings is listed as its new header says.
func TestListReadsAChangedHeaderAgain(t *testing.T) {
	h := testkit.New(t, testkit.Reply("one"), testkit.Reply("two"))
	ctx := context.Background()
	const id = "agent-0"
	var seqs []uint64
	for turn := range 2 {
		h.Prompt(id, "hello")
		h.WaitEvent(id, testkit.NthOfType(messages.EventTurnTerminal, turn+1))
		if _, err := h.Runtime.State(ctx, id); err != nil { // behind the settling step
			t.Fatal(err)
		}
		if err := h.Runtime.PassivateIdle(ctx); err != nil {
			t.Fatal(err)
		}
		if active := h.Runtime.Active(); len(active) != 0 {
			t.Fatalf("turn %d: Active() = %v after PassivateIdle, want none", turn, active)
		}
		high, err := h.Store().HighestSeq(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		list, err := h.Runtime.List(ctx)
		if err != nil || len(list) != 1 || list[0].LastSeq != high || list[0].Active {
			t.Fatalf("turn %d: List() = %+v, %v; want %s dormant at seq %d", turn, list, err, id, high)
		}
		seqs = append(seqs, high)
	}
	if seqs[1] <= seqs[0] {
		t.Fatalf("the journal's seqs %v: want the second turn to move it", seqs)
	}
}
