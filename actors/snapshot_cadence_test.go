package actors_test

import (
	"context"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestSnapshotsPacedBySize: an agent whose snapshot is large (a long
// conversation) saves the next one only once it has journaled as many
// bytes as the last holds, however many events SnapshotEvery asks for; the
// snapshot it replaces is gone, and a restart from the newest snapshot and
// the journal after it finds the whole conversation.
func TestSnapshotsPacedBySize(t *testing.T) {
	const turns = 30
	steps := make([]testkit.Step, turns+1)
	for i := range steps {
		steps[i] = testkit.Reply("done")
	}
	h := testkit.NewWith(t, testkit.Options{Steps: steps, Deps: func(_ string, d *actors.AgentDeps) {
		d.SnapshotEvery = 2 // every settled turn, by events alone
	}})
	ctx := context.Background()
	turn := func(n int, text string) persistence.Snapshot {
		t.Helper()
		h.Prompt("main", text)
		h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, n))
		if _, err := h.Runtime.State(ctx, "main"); err != nil { // behind the settling step
			t.Fatal(err)
		}
		snap, ok, err := h.Store().LoadSnapshot(ctx, "main", persistence.LatestSnapshot())
		if err != nil || !ok {
			t.Fatalf("LoadSnapshot after turn %d = %t, %v", n, ok, err)
		}
		return snap
	}
	journaled := func(after, upTo uint64) int {
		evs, err := h.Store().Read(ctx, "main", after+1, upTo, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, ev := range evs {
			n += len(ev.Payload)
		}
		return n
	}

	first := turn(1, strings.Repeat("a long brief to remember. ", 1200)) // ≈ 31 KB in the conversation
	last, saved := first, 0
	for n := 2; n <= turns; n++ {
		snap := turn(n, "short")
		if snap.Seq == last.Seq {
			continue
		}
		if got := journaled(last.Seq, snap.Seq); got < len(last.Data) {
			t.Fatalf("turn %d saved a snapshot at seq %d after %d journaled bytes, less than the %d of the one at seq %d",
				n, snap.Seq, got, len(last.Data), last.Seq)
		}
		if _, ok, err := h.Store().LoadSnapshot(ctx, "main", persistence.AtOrBelow(snap.Seq-1)); ok || err != nil {
			t.Fatalf("a snapshot below seq %d is left after it (%t, %v), want it deleted", snap.Seq, ok, err)
		}
		last = snap
		saved++
	}
	if saved == 0 || saved > turns/4 {
		t.Fatalf("%d snapshots saved over %d short turns after a %d-byte one, want some, far fewer than the turns", saved, turns-1, len(first.Data))
	}

	h.Restart()
	h.Prompt("main", "after the restart")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, turns+1))
	reqs := h.Provider.Requests()
	conv := reqs[len(reqs)-1].Conversation
	if n := 2*(turns+1) - 1; len(conv) != n || conv[n-1].Text != "after the restart" {
		t.Fatalf("after the restart the model saw %d items, want %d ending with the new prompt", len(conv), n)
	}
}
