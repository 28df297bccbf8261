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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkFieldError(t, tt.closure.Validate(), messages.ErrInvalidClosure, tt.field)
		})
	}
}
