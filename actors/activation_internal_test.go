package actors

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// TestReloadAfterPassivationChecksTheJournalDidNotMove: an agent that
// dropped its state (passivated) and gets a request before its actor
// retires reloads its state from the journal. In a cluster, a journal that
// moved meanwhile means another node activated the agent: this activation
// is fenced out instead of adopting the other's history as its own.
func TestReloadAfterPassivationChecksTheJournalDidNotMove(t *testing.T) {
	for _, tc := range []struct {
		name       string
		node       string
		movedSince bool
		wantFenced bool
	}{
		{"cluster, journal unchanged", "node-a", false, false},
		{"cluster, another node wrote", "node-a", true, true},
		{"single node, journal moved", "", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := persistence.NewMemStore()
			ctx := context.Background()
			write := func(p messages.Payload) {
				ev, err := messages.NewEvent("x", time.Now(), p)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := store.Append(ctx, "x", []messages.Event{ev}); err != nil {
					t.Fatal(err)
				}
			}
			write(messages.AgentCreated{AgentID: "x", Kind: messages.AgentNamed, Visibility: messages.VisibilityPublic,
				Ownership: messages.OwnershipSelfOwned, ProfilePreset: "public_named"})
			write(messages.AgentActivated{Node: "node-a", Activation: "act_1"})
			a := &agent{id: "x", deps: AgentDeps{Store: store, Log: zerolog.Nop(), Node: tc.node}.withDefaults(),
				passive: agentstate.AgentInfo{ID: "x", LastSeq: 2}}
			if tc.movedSince {
				write(messages.AgentActivated{Node: "node-b", Activation: "act_2"})
			}
			a.ensureState()
			if got := a.fenced != nil; got != tc.wantFenced {
				t.Fatalf("fenced = %v, want %v", a.fenced, tc.wantFenced)
			}
			if tc.wantFenced {
				if a.state != nil {
					t.Fatal("a fenced-out activation loaded the other node's state")
				}
				if !errors.Is(a.fenced, ErrFencedOut) || !errors.Is(a.fenced, persistence.ErrSeqConflict) {
					t.Fatalf("fenced = %v", a.fenced)
				}
				if err := a.persist(messages.AgentActivated{Node: "node-a", Activation: "act_3"}); !errors.Is(err, ErrFencedOut) {
					t.Fatalf("persist after fencing = %v, want ErrFencedOut", err)
				}
				if high, _ := store.HighestSeq(ctx, "x"); high != 3 {
					t.Fatalf("highest seq %d after a fenced-out write, want 3", high)
				}
				return
			}
			if a.state == nil {
				t.Fatal("state not reloaded")
			}
		})
	}
}
