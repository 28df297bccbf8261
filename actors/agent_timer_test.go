package actors_test

import (
	"context"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// waitArmed returns once the timer service holds n timers: from then on a
// clock advance past their due time fires them.
func waitArmed(t *testing.T, h *testkit.Harness, n int) []timers.Schedule {
	t.Helper()
	deadline := time.Now().Add(testkit.WaitTimeout)
	for {
		timers, err := h.Runtime.PendingTimers(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(timers) == n {
			return timers
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d timers armed, want %d", len(timers), n)
		}
		time.Sleep(time.Millisecond) // polling a state the runtime reaches on its own; not a timing assumption
	}
}

// TestSleepThenTimerWake: the model's Sleep ends the turn with the agent
// asleep, recording why and what wake it expects; the timer wakes it with
// a timer_tick turn.
func TestSleepThenTimerWake(t *testing.T) {
	h := testkit.New(t,
		testkit.Reply("I'll check back in a minute.", testkit.Call("s1", actors.SleepToolName, `{"duration_ms":60000,"reason":"wait for CI"}`)),
		testkit.Reply("CI is green."),
	)
	ctx := context.Background()
	h.Prompt("main", "Watch CI.")
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.Closure.Outcome != messages.OutcomeWaiting || tt.Closure.WaitingReason != messages.AwaitingTimer {
		t.Fatalf("closure = %+v, want waiting/awaiting_timer", tt.Closure)
	}
	slept := decode[messages.AgentSlept](t, h.WaitEvent("main", testkit.OfType(messages.EventAgentSlept)))
	if slept.Reason != "wait for CI" || slept.ExpectedWake != messages.TriggerTimerFire || slept.Until == nil ||
		!slept.Until.Equal(h.Clock.Now().Add(time.Minute)) {
		t.Fatalf("agent_slept = %+v", slept)
	}
	if st, _ := h.Runtime.State(ctx, "main"); st.Status != messages.StatusAsleep || len(st.Timers) != 1 {
		t.Fatalf("status %s with %d timers, want asleep with 1", st.Status, len(st.Timers))
	}
	if got := h.Provider.Requests()[0].Tools; len(got) == 0 || got[0].Name != actors.SleepToolName {
		t.Fatalf("tool catalog %v does not offer Sleep", got)
	}

	waitArmed(t, h, 1)
	h.Clock.Advance(59 * time.Second)
	if n := testkit.CountOfType(h.Events("main"), messages.EventTimerFired); n != 0 {
		t.Fatalf("timer fired %d times before it was due", n)
	}
	h.Clock.Advance(time.Second)
	tick := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2)))
	if tick.LastAssistantMessage != "CI is green." {
		t.Fatalf("turn after the timer = %+v", tick)
	}
	started := h.WaitEvent("main", testkit.NthOfType(messages.EventMessageProcessingStarted, 2))
	if c := decode[messages.MessageProcessingStarted](t, started).Continuation; c == nil ||
		c.TriggerKind != messages.TriggerTimerFire || !c.MatchedWaitingReason || !c.ModelVisible {
		t.Fatalf("continuation = %+v, want a model-visible timer_fire matching the wait", c)
	}
}

// TestTimerDueDuringDowntimeFiresOnce: a timer that came due while the
// runtime was down fires exactly once after restart, without any request.
func TestTimerDueDuringDowntimeFiresOnce(t *testing.T) {
	h := testkit.New(t,
		testkit.Reply("", testkit.Call("s1", actors.SleepToolName, `{"duration_ms":60000}`)),
		testkit.Reply("Woke up."),
	)
	h.Prompt("main", "Sleep a minute.")
	h.WaitEvent("main", testkit.OfType(messages.EventAgentSlept))
	waitArmed(t, h, 1)

	h.Store().Crash()
	h.Clock.Advance(10 * time.Minute) // nothing runs: the store is dead
	if active := h.Restart(); len(active) != 1 || active[0] != "main" {
		t.Fatalf("Recover activated %v, want [main] (pending timer)", active)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	h.Restart()              // and once more: the fire is not repeated
	h.Prompt("main", "ping") // a later turn proves the agent is live
	if n := testkit.CountOfType(h.Events("main"), messages.EventTimerFired); n != 1 {
		t.Fatalf("timer fired %d times, want exactly 1", n)
	}
	if ticks := countAdmitted(t, h.Events("main"), messages.KindTimerTick); ticks != 1 {
		t.Fatalf("%d timer_tick messages, want 1", ticks)
	}
}

// TestWakeHintsCoalesce: hints that arrive while the agent runs coalesce
// into one pending hint, taken as one SystemTick once it is idle.
func TestWakeHintsCoalesce(t *testing.T) {
	gate := make(chan struct{})
	first := testkit.Reply("working")
	first.Gate = gate
	h := testkit.New(t, first, testkit.Reply("saw the hint"))
	ctx := context.Background()
	h.Prompt("main", "work")
	<-h.Provider.Called
	for i := range 3 {
		d, err := h.Runtime.WakeHint(ctx, "main", "inbox", "new mail", true)
		if err != nil || d != actors.WakeCoalesced {
			t.Fatalf("hint %d = %s, %v; want coalesced", i, d, err)
		}
	}
	if st, _ := h.Runtime.State(ctx, "main"); st.PendingWakeHint == nil || st.PendingWakeHint.Count != 3 {
		t.Fatalf("pending wake hint = %+v, want 3 coalesced", st.PendingWakeHint)
	}
	close(gate)
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	if ticks := countAdmitted(t, h.Events("main"), messages.KindSystemTick); ticks != 1 {
		t.Fatalf("%d system ticks, want exactly 1 for 3 coalesced hints", ticks)
	}
	if st, _ := h.Runtime.State(ctx, "main"); st.PendingWakeHint != nil {
		t.Fatalf("pending wake hint left: %+v", st.PendingWakeHint)
	}
}

// TestPlainWakeHintIsLivenessOnly: a non-contentful hint wakes a sleeping
// agent without a model call.
func TestPlainWakeHintIsLivenessOnly(t *testing.T) {
	h := testkit.New(t, testkit.Reply("", testkit.Call("s1", actors.SleepToolName, `{}`)))
	ctx := context.Background()
	h.Prompt("main", "rest")
	h.WaitEvent("main", testkit.OfType(messages.EventAgentSlept))
	d, err := h.Runtime.WakeHint(ctx, "main", "monitor", "ping", false)
	if err != nil || d != actors.WakeTriggered {
		t.Fatalf("hint = %s, %v; want triggered", d, err)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	if n := len(h.Provider.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1: a liveness wake makes no model call", n)
	}
	if st, _ := h.Runtime.State(ctx, "main"); st.Status != messages.StatusAwakeIdle {
		t.Fatalf("status = %s, want awake_idle", st.Status)
	}
	if _, err := h.Runtime.Control(ctx, "main", actors.OpStop, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Runtime.WakeHint(ctx, "main", "monitor", "ping", false); err == nil {
		t.Fatal("a wake hint to a stopped agent was accepted")
	}
}

// countAdmitted counts the admitted messages of kind in evs.
func countAdmitted(t *testing.T, evs []messages.Event, kind messages.MessageKind) int {
	t.Helper()
	n := 0
	for _, ev := range evs {
		if ev.Type == messages.EventMessageAdmitted && decode[messages.MessageAdmitted](t, ev).Envelope.Kind == kind {
			n++
		}
	}
	return n
}
