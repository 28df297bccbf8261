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

// TestCreatedTimerAcrossCrash: an operator's hourly timer fires on the
// injected clock as a timer_tick turn; the runtime crashes and stays down
// for 3½ hours; on restart the timer fires once for the missed runs
// (run_once), reporting them, and a further restart fires nothing again.
func TestCreatedTimerAcrossCrash(t *testing.T) {
	h := testkit.New(t, testkit.Reply("Hi."), testkit.Reply("Checked."), testkit.Reply("Checked again."), testkit.Reply("pong"))
	ctx := context.Background()
	h.Prompt("main", "hello")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))

	v, err := h.Runtime.CreateTimer(ctx, "main", actors.TimerRequest{Message: "Check the build.", Every: "1h"})
	if err != nil {
		t.Fatal(err)
	}
	if v.NextDueAt == nil || !v.NextDueAt.Equal(h.Clock.Now().Add(time.Hour)) {
		t.Fatalf("created %+v, want its first fire in an hour", v)
	}
	waitArmed(t, h, 1)
	h.Clock.Advance(time.Hour)
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))

	waitArmed(t, h, 1)
	h.Store().Crash()
	h.Clock.Advance(3*time.Hour + 30*time.Minute)
	if active := h.Restart(); len(active) != 1 || active[0] != "main" {
		t.Fatalf("Recover activated %v, want [main] (its timer)", active)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 3))
	h.Restart()
	h.Prompt("main", "ping")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 4))

	evs := h.Events("main")
	if n := testkit.CountOfType(evs, messages.EventTimerFired); n != 2 {
		t.Fatalf("timer fired %d times, want 2 (on time, then once after the downtime)", n)
	}
	var texts []string
	for _, ev := range evs {
		if ev.Type == messages.EventMessageAdmitted {
			m := decode[messages.MessageAdmitted](t, ev).Envelope
			if m.Kind == messages.KindTimerTick {
				texts = append(texts, m.Body.Text)
			}
		}
	}
	if len(texts) != 2 || !strings.Contains(texts[1], "2 earlier run(s) not delivered") || !strings.Contains(texts[1], "late") {
		t.Fatalf("timer_tick messages %q, want the second to report 2 missed runs and how late", texts)
	}
	ts, err := h.Runtime.Timers(ctx, "main")
	if err != nil || len(ts) != 1 || ts[0].Fires != 2 || !ts[0].NextDueAt.Equal(h.Clock.Now().Add(30*time.Minute)) {
		t.Fatalf("timers %+v (%v), want 2 fires and the next on the hour", ts, err)
	}
}

// TestTimerOperatorActions: pause disarms the timer, resume re-arms it,
// run-now delivers at once without moving it, cancel removes it; an unknown
// timer and a bad request are refused and change nothing.
func TestTimerOperatorActions(t *testing.T) {
	h := testkit.New(t, testkit.Reply("Ran."))
	ctx := context.Background()
	v, err := h.Runtime.CreateTimer(ctx, "main", actors.TimerRequest{Message: "Daily report.", Cron: "0 9 * * *", Zone: "Europe/Paris"})
	if err != nil {
		t.Fatal(err)
	}
	waitArmed(t, h, 1)
	if _, err := h.Runtime.ChangeTimer(ctx, "main", actors.TimerPause, v.TimerID); err != nil {
		t.Fatal(err)
	}
	waitArmed(t, h, 0)
	if _, err := h.Runtime.ChangeTimer(ctx, "main", actors.TimerResume, v.TimerID); err != nil {
		t.Fatal(err)
	}
	waitArmed(t, h, 1)
	if _, err := h.Runtime.ChangeTimer(ctx, "main", actors.TimerRunNow, v.TimerID); err != nil {
		t.Fatal(err)
	}
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	if _, err := h.Runtime.ChangeTimer(ctx, "main", actors.TimerCancel, "tmr_nope"); !errors.Is(err, actors.ErrTimerNotFound) {
		t.Fatalf("cancel of an unknown timer: %v, want ErrTimerNotFound", err)
	}
	if _, err := h.Runtime.CreateTimer(ctx, "main", actors.TimerRequest{Message: "x", Every: "5s"}); !errors.Is(err, actors.ErrTimerTooFrequent) {
		t.Fatalf("every 5s: %v, want ErrTimerTooFrequent", err)
	}
	ts, _ := h.Runtime.Timers(ctx, "main")
	if len(ts) != 1 || ts[0].Fires != 0 || !ts[0].NextDueAt.Equal(*v.NextDueAt) {
		t.Fatalf("timers %+v, want the one timer, schedule unmoved by run-now", ts)
	}
	if _, err := h.Runtime.ChangeTimer(ctx, "main", actors.TimerCancel, v.TimerID); err != nil {
		t.Fatal(err)
	}
	waitArmed(t, h, 0)
}

// TestAgentCreatesTimer: the model's CreateTimer call arms a timer of the
// calling agent; its fire reaches the agent as a runtime timer_tick turn,
// and the one-shot ends.
func TestAgentCreatesTimer(t *testing.T) {
	h := testkit.New(t,
		testkit.Reply("", testkit.Call("c1", "CreateTimer", `{"message":"Look at the queue again.","after":"10m"}`)),
		testkit.Reply("Timer set."),
		testkit.Reply("Looked again."),
	)
	ctx := context.Background()
	h.Prompt("main", "Remind yourself in ten minutes.")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	ts, err := h.Runtime.Timers(ctx, "main")
	if err != nil || len(ts) != 1 || ts[0].CreatedBy != "agent" {
		t.Fatalf("timers %+v (%v), want the agent's one", ts, err)
	}
	waitArmed(t, h, 1)
	h.Clock.Advance(10 * time.Minute)
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2)))
	if tt.LastAssistantMessage != "Looked again." {
		t.Fatalf("turn after the fire = %+v", tt)
	}
	if ts, _ := h.Runtime.Timers(ctx, "main"); len(ts) != 0 {
		t.Fatalf("one-shot still listed after its fire: %+v", ts)
	}
}

// tickTexts are the texts of agent id's timer_tick messages, in order.
func tickTexts(t *testing.T, h *testkit.Harness, id string) []string {
	t.Helper()
	var out []string
	for _, ev := range h.Events(id) {
		if ev.Type == messages.EventMessageAdmitted {
			if m := decode[messages.MessageAdmitted](t, ev).Envelope; m.Kind == messages.KindTimerTick {
				out = append(out, m.Body.Text)
			}
		}
	}
	return out
}

// TestTimerDoesNotPileUp: an every-minute timer of a paused agent queues
// one message at most, however many minutes pass; of a stopped agent,
// none, and one on resume; each delivered fire after reports the runs
// held back.
func TestTimerDoesNotPileUp(t *testing.T) {
	for _, op := range []actors.ControlOp{actors.OpPause, actors.OpStop} {
		t.Run(string(op), func(t *testing.T) {
			h := testkit.New(t, testkit.Reply("One."), testkit.Reply("Two."))
			ctx := context.Background()
			if _, err := h.Runtime.CreateTimer(ctx, "main", actors.TimerRequest{Message: "Poll.", Every: "1m"}); err != nil {
				t.Fatal(err)
			}
			if _, err := h.Runtime.Control(ctx, "main", op, ""); err != nil {
				t.Fatal(err)
			}
			for i := range 5 {
				waitArmed(t, h, 1)
				h.Clock.Advance(time.Minute)
				if op == actors.OpStop {
					break // a stopped agent's fire is dropped, its timer re-armed on resume
				}
				h.WaitEvent("main", testkit.NthOfType(messages.EventTimerFired, i+1))
			}
			h.Clock.Advance(4 * time.Minute) // four more runs: one fire of a paused agent's timer
			if op == actors.OpPause {
				h.WaitEvent("main", testkit.NthOfType(messages.EventTimerFired, 6))
			}
			st, _ := h.Runtime.State(ctx, "main")
			if want := map[actors.ControlOp]int{actors.OpPause: 1, actors.OpStop: 0}[op]; st.Queue.Len() != want {
				t.Fatalf("%d messages queued while %sd, want %d", st.Queue.Len(), op, want)
			}
			if _, err := h.Runtime.Control(ctx, "main", actors.OpResume, ""); err != nil {
				t.Fatal(err)
			}
			h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
			texts := tickTexts(t, h, "main")
			if len(texts) != 1 {
				t.Fatalf("%d timer_tick messages after resume, want 1: %q", len(texts), texts)
			}
			if op == actors.OpStop && !strings.Contains(texts[0], "earlier run(s) not delivered") {
				t.Errorf("the fire on resume = %q, want it to report the runs missed while stopped", texts[0])
			}
			waitArmed(t, h, 1)
			h.Clock.Advance(time.Minute)
			h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
			if texts = tickTexts(t, h, "main"); op == actors.OpPause && !strings.Contains(texts[1], "8 earlier run(s) not delivered") {
				t.Errorf("the next fire = %q, want it to report the 8 runs held back while paused", texts[1])
			}
		})
	}
}

// TestCancelDuringFire: a timer cancelled while the turn of its fire runs
// lets that turn finish, and never fires again.
func TestCancelDuringFire(t *testing.T) {
	gate := make(chan struct{})
	h := testkit.New(t, testkit.Step{Text: "Polled.", Gate: gate})
	ctx := context.Background()
	v, err := h.Runtime.CreateTimer(ctx, "main", actors.TimerRequest{Message: "Poll.", Every: "1m"})
	if err != nil {
		t.Fatal(err)
	}
	waitArmed(t, h, 1)
	h.Clock.Advance(time.Minute)
	<-h.Provider.Called // the fire's turn is at its model call
	if _, err := h.Runtime.ChangeTimer(ctx, "main", actors.TimerCancel, v.TimerID); err != nil {
		t.Fatal(err)
	}
	close(gate)
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.LastAssistantMessage != "Polled." {
		t.Fatalf("the fire's turn = %+v, want it finished", tt)
	}
	waitArmed(t, h, 0)
	h.Clock.Advance(10 * time.Minute)
	h.Prompt("main", "ping") // a later turn: anything the clock fired is applied before it
	if n := testkit.CountOfType(h.Events("main"), messages.EventTimerFired); n != 1 {
		t.Fatalf("timer fired %d times, want 1 (none after the cancel)", n)
	}
}

// TestDailyParisJobAcrossDowntimeAndDST is the done-when on the
// injected clock: a daily 09:00 Europe/Paris timer fires at 09:00 CET, the
// runtime crashes and stays down past the spring daylight-saving change,
// comes back and fires once for the missed days (reporting them), then at
// 09:00 CEST; a further restart fires nothing twice.
func TestDailyParisJobAcrossDowntimeAndDST(t *testing.T) {
	h := testkit.New(t, testkit.Reply("Report 1."), testkit.Reply("Report 2."), testkit.Reply("Report 3."), testkit.Reply("pong"))
	ctx := context.Background()
	v, err := h.Runtime.CreateTimer(ctx, "main", actors.TimerRequest{Message: "Post the daily report.", Cron: "0 9 * * *", Zone: "Europe/Paris"})
	if err != nil {
		t.Fatal(err)
	}
	paris, _ := time.LoadLocation("Europe/Paris")
	if due := v.NextDueAt.In(paris); due.Hour() != 9 || due.Minute() != 0 {
		t.Fatalf("first fire %v, want 09:00 in Paris", due)
	}
	waitArmed(t, h, 1)
	h.Clock.Advance(v.NextDueAt.Sub(h.Clock.Now()))
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 1))

	waitArmed(t, h, 1)
	h.Store().Crash()
	back := time.Date(2027, 3, 29, 8, 30, 0, 0, paris) // the change was on March 28
	h.Clock.Advance(back.Sub(h.Clock.Now()))
	h.Restart()
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	texts := tickTexts(t, h, "main")
	if len(texts) != 2 || !strings.Contains(texts[1], "earlier run(s) not delivered") {
		t.Fatalf("timer_tick messages %q, want one for the missed days, reporting them", texts)
	}
	ts, _ := h.Runtime.Timers(ctx, "main")
	if len(ts) != 1 || !ts[0].NextDueAt.Equal(time.Date(2027, 3, 29, 9, 0, 0, 0, paris)) || ts[0].NextDueAt.In(paris).Format("MST") != "CEST" {
		t.Fatalf("next fire %v, want 09:00 CEST on March 29", ts[0].NextDueAt)
	}
	waitArmed(t, h, 1)
	h.Clock.Advance(30 * time.Minute)
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 3))
	h.Restart()
	h.Prompt("main", "ping") // a later turn proves the agent is live and anything re-fired is applied
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 4))
	if n := testkit.CountOfType(h.Events("main"), messages.EventTimerFired); n != 3 {
		t.Fatalf("timer fired %d times, want 3", n)
	}
}
