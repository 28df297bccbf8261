package actors_test

import (
	"context"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestInterrupt: an operator prompt sent with an interrupt ends the turn
// in flight (aborted, without an operator notification: the operator did
// it) and runs next; an interrupt that names the running turn's own
// message, or comes between turns, changes nothing.
func TestInterrupt(t *testing.T) {
	gate := make(chan struct{})
	h := testkit.New(t)
	// The scripted model picks its step by round, and the interrupted turn
	// records none: both turns get this step, held until the gate opens.
	h.Provider.Script(testkit.Step{Text: "Second prompt handled.", Gate: gate})
	first := h.Prompt("main", "A long job.")
	<-h.Provider.Called
	ctx := context.Background()

	// Sparing the running turn changes nothing.
	if st, err := h.Runtime.Interrupt(ctx, "main", first.ID, ""); err != nil || st != messages.StatusAwakeRunning {
		t.Fatalf("Interrupt sparing the running turn = %s, %v", st, err)
	}
	second := h.Envelope("main", "Do this instead.", messages.PriorityNext)
	h.Send(second)
	if st, err := h.Runtime.Interrupt(ctx, "main", second.ID, "changed my mind"); err != nil || st == messages.StatusStopped {
		t.Fatalf("Interrupt = %s, %v", st, err)
	}

	ended := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if ended.MessageID != first.ID || ended.Kind != messages.TerminalAborted {
		t.Fatalf("first terminal = %+v, want the first prompt's turn aborted", ended)
	}
	close(gate)
	briefWith(t, h, "main", messages.BriefResult, "Second prompt handled.")
	if next := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))); next.MessageID != second.ID ||
		next.Kind != messages.TerminalCompleted {
		t.Fatalf("second terminal = %+v, want the interrupting prompt's turn completed", next)
	}
	var failure messages.RuntimeError
	for _, ev := range h.Events("main") {
		switch ev.Type {
		case messages.EventRuntimeError:
			failure = decode[messages.RuntimeError](t, ev)
		case messages.EventOperatorNotificationRequested:
			t.Errorf("the operator was notified of the interrupt they made: %s", ev.Payload)
		}
	}
	if failure.Failure.Code != "turn_interrupted" || !strings.Contains(failure.Failure.Message, "changed my mind") {
		t.Errorf("runtime_error = %+v", failure.Failure)
	}

	// Between turns there is nothing to interrupt.
	st, err := h.Runtime.Interrupt(ctx, "main", "", "")
	if err != nil || st != messages.StatusAwakeIdle {
		t.Fatalf("Interrupt between turns = %s, %v", st, err)
	}
	if n := testkit.CountOfType(h.Events("main"), messages.EventTurnTerminal); n != 2 {
		t.Fatalf("%d turn terminals, want 2", n)
	}
	if _, err := h.Runtime.Control(ctx, "main", actors.OpInterrupt, ""); err != nil {
		t.Fatalf("Control(interrupt) = %v", err)
	}
}
