package agentstate

import (
	"slices"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// TestWorkTraceOnlyForABoundOpenItem: what the model said and what a tool
// did are traced for the open work item the turn is bound to, and for no
// other turn.
func TestWorkTraceOnlyForABoundOpenItem(t *testing.T) {
	tests := []struct {
		name  string
		bound string
		state messages.WorkItemState
		want  []string
	}{
		{"unbound", "", messages.WorkItemStateOpen, nil},
		{"bound, open", "wi_1", messages.WorkItemStateOpen, []string{"said: checking", "echo ok: done"}},
		{"bound, completed", "wi_1", messages.WorkItemStateCompleted, nil},
		{"bound to an unknown item", "wi_2", messages.WorkItemStateOpen, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &State{ID: "a", Turn: &TurnState{ID: "turn_1"}}
			s.WorkItems = map[string]*messages.WorkItemRecord{"wi_1": {ID: "wi_1", State: tt.state}}
			if tt.bound != "" {
				s.Turn.Work = &TurnWork{BoundItemID: tt.bound}
			}
			if got, want := s.tracingWork(), tt.want != nil; got != want {
				t.Errorf("tracingWork() = %t, want %t", got, want)
			}
			ev := messages.Event{At: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)}
			if err := s.ApplyDecoded(ev, messages.AssistantRoundRecorded{Text: "checking"}); err != nil {
				t.Fatal(err)
			}
			if err := s.ApplyDecoded(ev, messages.ToolExecuted{CallID: "call_1", ToolName: "echo", Status: messages.ToolOK,
				Receipt: "done"}); err != nil {
				t.Fatal(err)
			}
			if got := s.WorkTrace[tt.bound]; !slices.Equal(got, tt.want) {
				t.Errorf("trace = %q, want %q", got, tt.want)
			}
		})
	}
}
