package messages_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestClosureValidate(t *testing.T) {
	tests := []struct {
		name    string
		closure messages.Closure
		field   string
	}{
		{"completed", messages.Closure{Outcome: messages.OutcomeCompleted}, ""},
		{"waiting", messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingTimer}, ""},
		{"zero", messages.Closure{}, "outcome"},
		{"waiting without reason", messages.Closure{Outcome: messages.OutcomeWaiting}, "waiting_reason"},
		{"waiting with unknown reason", messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: "bored"}, "waiting_reason"},
		{"failed with reason", messages.Closure{Outcome: messages.OutcomeFailed, WaitingReason: messages.AwaitingTimer}, "waiting_reason"},
		{"continuable", messages.Closure{Outcome: messages.OutcomeContinuable, WorkSignal: &messages.WorkSignal{WorkItemID: "wi_1",
			Status: messages.WorkSignalActive, ReactivationMode: messages.ReactivateContinueActive}}, ""},
		{"continuable queued", messages.Closure{Outcome: messages.OutcomeContinuable, WorkSignal: &messages.WorkSignal{WorkItemID: "wi_1",
			Status: messages.WorkSignalQueued, ReactivationMode: messages.ReactivateActivateQueued}}, ""},
		{"continuable without signal", messages.Closure{Outcome: messages.OutcomeContinuable}, "work_signal"},
		{"completed with signal", messages.Closure{Outcome: messages.OutcomeCompleted, WorkSignal: &messages.WorkSignal{WorkItemID: "wi_1",
			Status: messages.WorkSignalActive, ReactivationMode: messages.ReactivateContinueActive}}, "work_signal"},
		{"signal without item", messages.Closure{Outcome: messages.OutcomeContinuable, WorkSignal: &messages.WorkSignal{
			Status: messages.WorkSignalActive, ReactivationMode: messages.ReactivateContinueActive}}, "work_signal"},
		{"mixed signal", messages.Closure{Outcome: messages.OutcomeContinuable, WorkSignal: &messages.WorkSignal{WorkItemID: "wi_1",
			Status: messages.WorkSignalActive, ReactivationMode: messages.ReactivateActivateQueued}}, "work_signal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkFieldError(t, tt.closure.Validate(), messages.ErrInvalidClosure, tt.field)
		})
	}
}
