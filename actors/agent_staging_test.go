package actors_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestStagedRecordsShareOneAppend: the records a turn's end makes in a row
// (the terminal, the brief, the status change to idle) are journaled as
// one durable append, so a crash right after the turn's terminal finds the
// idle status durable with it; a tool's start is still written alone
// before the tool runs, so a crash right after it finds nothing after it.
func TestStagedRecordsShareOneAppend(t *testing.T) {
	cases := []struct {
		name  string
		crash func(messages.Event) bool
		last  func(t *testing.T, ev messages.Event)
	}{
		{"turn end", testkit.OfType(messages.EventTurnTerminal), func(t *testing.T, ev messages.Event) {
			p, err := ev.Decode()
			if err != nil {
				t.Fatal(err)
			}
			if sc, ok := p.(messages.AgentStateChanged); !ok || sc.To != messages.StatusAwakeIdle {
				t.Errorf("last durable event = %s %+v, want the change to %s in the terminal's append", ev.Type, p, messages.StatusAwakeIdle)
			}
		}},
		{"tool start", testkit.OfType(messages.EventToolCallStarted), func(t *testing.T, ev messages.Event) {
			if ev.Type != messages.EventToolCallStarted {
				t.Errorf("last durable event = %s, want %s written alone", ev.Type, messages.EventToolCallStarted)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := testkit.New(t, crashScript()...)
			h.Store().CrashAfter(tc.crash)
			h.Send(h.Envelope("main", "Echo ping.", messages.PriorityNormal))
			<-h.Store().Died()
			evs := h.Events("main")
			if len(evs) == 0 {
				t.Fatal("nothing journaled")
			}
			tc.last(t, evs[len(evs)-1])
		})
	}
}
