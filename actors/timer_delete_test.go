package actors_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestDeletedAgentTimersDisarmed: deleting an agent disarms its created
// timers in the timer service, so none stays armed to fire for an agent
// that is gone (and none re-arms after a restart).
func TestDeletedAgentTimersDisarmed(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withHome, Steps: []testkit.Step{testkit.Reply("done")}})
	ctx := context.Background()
	h.Prompt("w", "hi")
	h.WaitEvent("w", testkit.OfType(messages.EventTurnTerminal))
	if _, err := h.Runtime.CreateTimer(ctx, "w", actors.TimerRequest{Message: "Report.", Every: "1h"}); err != nil {
		t.Fatal(err)
	}
	waitArmed(t, h, 1)
	if _, err := h.Runtime.Delete(ctx, "w", actors.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitArmed(t, h, 0)
	h.Clock.Advance(time.Hour)
	if _, err := h.Runtime.Info(ctx, "w"); !errors.Is(err, actors.ErrAgentDeleted) {
		t.Fatalf("Info(w) after its timer was due = %v, want ErrAgentDeleted", err)
	}
	h.Restart()
	waitArmed(t, h, 0)
}
