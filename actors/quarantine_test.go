package actors_test

import (
	"context"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestQuarantineRecordsTheAgentsOwnStatus: the quarantine's status change
// is decided from the agent's journaled state, so it says what the agent
// was before it was stopped (here awake_idle after its first turn) and
// follows the agent's last event in its stream.
func TestQuarantineRecordsTheAgentsOwnStatus(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Steps: []testkit.Step{testkit.Reply("ok")}, RequestTimeout: time.Second})
	h.Prompt("bad", "hello")
	h.WaitEvent("bad", testkit.OfType(messages.EventTurnTerminal))
	h.WaitEvent("bad", func(ev messages.Event) bool {
		if ev.Type != messages.EventAgentStateChanged {
			return false
		}
		p, _ := ev.Decode()
		return p.(messages.AgentStateChanged).To == messages.StatusAwakeIdle
	})
	h.SetFault(func(agent, point string) {
		if agent == "bad" {
			panic("poisoned agent")
		}
	})
	_, _ = h.Runtime.Admit(context.Background(), h.Envelope("bad", "crash", messages.PriorityNormal))
	ev := h.WaitEvent("bad", func(ev messages.Event) bool {
		if ev.Type != messages.EventAgentStateChanged {
			return false
		}
		p, _ := ev.Decode()
		return p.(messages.AgentStateChanged).To == messages.StatusStopped
	})
	if s := decode[messages.AgentStateChanged](t, ev); s.From != messages.StatusAwakeIdle || s.Reason != "quarantined after repeated crashes" {
		t.Fatalf("quarantine status change = %+v, want awake_idle to stopped", s)
	}
}
