package messages_test

import (
	"errors"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestFieldErrorMessage(t *testing.T) {
	err := messages.TimerOrigin("").Validate()
	const want = "messages: invalid envelope: origin.timer_id is required for timer origin"
	if err == nil || err.Error() != want {
		t.Errorf("Validate() = %v, want %q", err, want)
	}
	if errors.Is(err, messages.ErrInvalidEvent) {
		t.Error("an envelope error matches ErrInvalidEvent")
	}
}
