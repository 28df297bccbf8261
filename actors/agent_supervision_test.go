package actors_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestPanicMidTurnInterruptsTheTurn: an agent that panics is restarted and
// rebuilt from its journal; the turn it was running is ended as
// interrupted with a failure brief rather than replayed into another
// panic, and the agent goes on working.
func TestPanicMidTurnInterruptsTheTurn(t *testing.T) {
	panicked := false
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{testkit.Reply("answer"), testkit.Reply("answer")},
	})
	h.SetFault(func(agent, point string) {
		if agent == "main" && point == "*actors.stepDone" && !panicked {
			panicked = true // the agent's goroutine only: no race
			panic("injected fault")
		}
	})
	first := h.Prompt("main", "first")
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.Kind != messages.TerminalInterrupted || tt.MessageID != first.ID || tt.Closure.Outcome != messages.OutcomeFailed {
		t.Fatalf("turn after the panic = %+v, want interrupted/failed", tt)
	}
	brief := decode[messages.BriefRecorded](t, h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded)))
	if brief.Brief.Kind != messages.BriefFailure {
		t.Fatalf("brief = %+v, want a failure brief", brief.Brief)
	}
	h.Prompt("main", "second")
	tt2 := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2)))
	if tt2.Kind != messages.TerminalCompleted {
		t.Fatalf("turn after recovery = %+v, want completed", tt2)
	}
}

// TestCrashLoopQuarantinesOnlyThatAgent: past its restart budget an agent
// is stopped with an operator-visible quarantine record instead of
// crash-looping; other agents keep working; the quarantined agent answers
// with resume guidance and resumes once the cause is gone.
func TestCrashLoopQuarantinesOnlyThatAgent(t *testing.T) {
	var steps []testkit.Step
	for range 4 {
		steps = append(steps, testkit.Reply("ok"))
	}
	h := testkit.NewWith(t, testkit.Options{Steps: steps, RequestTimeout: time.Second})
	ctx := context.Background()
	h.Prompt("bad", "hello")
	h.WaitEvent("bad", testkit.OfType(messages.EventTurnTerminal))

	h.SetFault(func(agent, point string) {
		if agent == "bad" {
			panic("poisoned agent")
		}
	})
	// The request is lost with the crashing agent; the answer is a timeout.
	_, _ = h.Runtime.Admit(ctx, h.Envelope("bad", "crash", messages.PriorityNormal))
	rerr := decode[messages.RuntimeError](t, h.WaitEvent("bad", func(ev messages.Event) bool {
		return ev.Type == messages.EventRuntimeError
	}))
	if rerr.Failure.Code != "agent_quarantined" {
		t.Fatalf("runtime_error = %+v, want agent_quarantined", rerr.Failure)
	}
	n := decode[messages.OperatorNotificationRequested](t, h.WaitEvent("bad", testkit.OfType(messages.EventOperatorNotificationRequested))).Notification
	if n.Reason != messages.NotifyAgentQuarantined || !strings.HasPrefix(n.Summary, "The agent crashed") {
		t.Fatalf("quarantine notification = %+v", n)
	}

	// Another agent is unaffected.
	h.Prompt("main", "still there?")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))

	h.SetFault(nil)
	if _, err := h.Runtime.Admit(ctx, h.Envelope("bad", "again", messages.PriorityNormal)); !errors.Is(err, actors.ErrAgentStopped) {
		t.Fatalf("admit to the quarantined agent = %v, want ErrAgentStopped", err)
	}
	if st, err := h.Runtime.Control(ctx, "bad", actors.OpResume, "fixed"); err != nil || st != messages.StatusAwakeIdle {
		t.Fatalf("resume = %s, %v", st, err)
	}
	h.Prompt("bad", "after resume")
	h.WaitEvent("bad", testkit.NthOfType(messages.EventTurnTerminal, 2))
}
