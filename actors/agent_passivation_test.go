package actors_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/testkit"
)

// retirements installs a fault hook that reports every agent whose actor
// stops after passivation (the "retire" point), and returns its channel.
func retirements(h *testkit.Harness) <-chan string {
	ch := make(chan string, 1024)
	h.SetFault(func(agent, point string) {
		if point == "retire" {
			select {
			case ch <- agent:
			default: // nobody counts this many: never block the agent
			}
		}
	})
	return ch
}

// awaitRetired waits until agent's actor retires.
func awaitRetired(t *testing.T, retired <-chan string, agent string) {
	t.Helper()
	deadline := time.NewTimer(testkit.WaitTimeout)
	defer deadline.Stop()
	for {
		select {
		case id := <-retired:
			if id == agent {
				return
			}
		case <-deadline.C:
			t.Fatalf("agent %s not retired after %v", agent, testkit.WaitTimeout)
		}
	}
}

// awaitIdleTimers returns once n timers of the fake clock are armed (idle
// timers of idle agents, plus the timer service's one when it holds a
// timer): from then on a clock advance past their time fires them.
func awaitIdleTimers(t *testing.T, h *testkit.Harness, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitTimeout)
	defer cancel()
	if err := h.Clock.BlockUntilContext(ctx, n); err != nil {
		t.Fatalf("waiting for %d armed clock timers: %v", n, err)
	}
}

// TestIdleAgentActorStops: after its idle timeout an agent's actor is
// stopped (its snapshot current, Active no longer listing it); the next
// prompt activates it again with its history intact.
func TestIdleAgentActorStops(t *testing.T) {
	h := testkit.New(t, testkit.Reply("first answer"), testkit.Reply("second answer"))
	retired := retirements(h)
	ctx := context.Background()
	h.Prompt("main", "first")
	h.WaitEvent("main", testkit.NthOfType(messages.EventAgentStateChanged, 3)) // awake_idle
	awaitIdleTimers(t, h, 1)
	if active := h.Runtime.Active(); !slices.Equal(active, []string{"main"}) {
		t.Fatalf("Active() = %v before the idle timeout, want [main]", active)
	}

	h.Clock.Advance(actors.DefaultIdleTimeout)
	awaitRetired(t, retired, "main")
	if active := h.Runtime.Active(); len(active) != 0 {
		t.Fatalf("Active() = %v after the idle timeout, want none", active)
	}
	snap, ok, err := h.Store().LoadSnapshot(ctx, "main", persistence.LatestSnapshot())
	high, _ := h.Store().HighestSeq(ctx, "main")
	if err != nil || !ok || snap.Seq != high {
		t.Fatalf("snapshot after retirement = seq %d ok %v err %v, want seq %d", snap.Seq, ok, err, high)
	}
	if ok, err := h.Runtime.Exists(ctx, "main"); !ok || err != nil {
		t.Fatalf("Exists(main) = %v, %v for a retired agent, want true", ok, err)
	}
	list, err := h.Runtime.List(ctx)
	if err != nil || len(list) != 1 || list[0].ID != "main" || list[0].Active {
		t.Fatalf("List() = %+v, %v; want main, dormant", list, err)
	}
	if active := h.Runtime.Active(); len(active) != 0 {
		t.Fatalf("List activated %v", active)
	}

	h.Prompt("main", "second")
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2)))
	if tt.LastAssistantMessage != "second answer" {
		t.Fatalf("second turn = %+v", tt)
	}
	if conv := h.Provider.Requests()[1].Conversation; len(conv) != 3 || conv[1].Text != "first answer" {
		t.Fatalf("after reactivation the model saw %+v, want the first turn then the new prompt", conv)
	}
	if active := h.Runtime.Active(); !slices.Equal(active, []string{"main"}) {
		t.Fatalf("Active() = %v after the prompt, want [main]", active)
	}
}

// TestPassivateIdleStopsIdleActors: PassivateIdle returns once every idle
// agent's actor is gone; a busy agent (paused with a queued message) keeps
// its actor; a crash restart leaves the retired agents dormant.
func TestPassivateIdleStopsIdleActors(t *testing.T) {
	h := testkit.New(t, testkit.Reply("one"))
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c"} {
		if err := h.Runtime.Activate(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.Runtime.Control(ctx, "busy", actors.OpPause, ""); err != nil {
		t.Fatal(err)
	}
	h.Prompt("busy", "queued while paused")
	if err := h.Runtime.PassivateIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if active := h.Runtime.Active(); !slices.Equal(active, []string{"busy"}) {
		t.Fatalf("Active() = %v after PassivateIdle, want [busy]", active)
	}
	if st, err := h.Runtime.State(ctx, "b"); err != nil || st.ID != "b" || st.Status != messages.StatusAwakeIdle {
		t.Fatalf("State(b) = %+v, %v", st, err)
	}
	if active := h.Restart(); !slices.Equal(active, []string{"busy"}) {
		t.Fatalf("Recover after a crash activated %v, want [busy]", active)
	}
	if active := h.Runtime.Active(); !slices.Equal(active, []string{"busy"}) {
		t.Fatalf("Active() = %v after the restart, want [busy]", active)
	}
}

// TestRetirementRaceLosesNothing: prompts, State, Info and wake hints sent
// while agents keep being retired (explicitly and by their idle timers) are
// all answered, none times out, and every prompt is admitted and answered
// exactly once.
func TestRetirementRaceLosesNothing(t *testing.T) {
	const (
		agents  = 4
		prompts = 8  // per agent
		reads   = 60 // State and Info calls per agent
	)
	var steps []testkit.Step
	for range prompts {
		steps = append(steps, testkit.Reply("ok"))
	}
	h := testkit.NewWith(t, testkit.Options{Steps: steps, RequestTimeout: 10 * time.Second})
	var retiredCount atomic.Int64
	h.SetFault(func(_, point string) {
		if point == "retire" {
			retiredCount.Add(1)
		}
	})
	ctx := context.Background()

	done := make(chan struct{}) // closed when every caller has its answers
	var churn sync.WaitGroup
	churn.Go(func() { // retires idle agents, as fast as it can
		for {
			select {
			case <-done:
				return
			default:
			}
			if err := h.Runtime.PassivateIdle(ctx); err != nil {
				t.Errorf("PassivateIdle: %v", err)
				return
			}
			h.Clock.Advance(actors.DefaultIdleTimeout) // and the idle timers fire
		}
	})

	var callers sync.WaitGroup
	sent := make([][]string, agents) // message ids admitted, per agent
	for i := range agents {
		id := fmt.Sprintf("agent-%d", i)
		callers.Go(func() {
			for n := range prompts {
				env := h.Envelope(id, fmt.Sprintf("prompt %d", n), messages.PriorityNormal)
				res, err := h.Runtime.Admit(ctx, env)
				if err != nil || res.Duplicate {
					t.Errorf("Admit %s #%d = %+v, %v", id, n, res, err)
					return
				}
				sent[i] = append(sent[i], env.ID)
			}
		})
		callers.Go(func() {
			for n := range reads {
				if n%2 == 0 {
					if st, err := h.Runtime.State(ctx, id); err != nil || st.ID != id {
						t.Errorf("State %s #%d = %+v, %v", id, n, st.ID, err)
						return
					}
				} else if in, err := h.Runtime.Info(ctx, id); err != nil || in.ID != id {
					t.Errorf("Info %s #%d = %+v, %v", id, n, in.ID, err)
					return
				}
			}
		})
		callers.Go(func() {
			for n := range reads / 6 {
				if _, err := h.Runtime.WakeHint(ctx, id, "test", fmt.Sprintf("hint %d", n), false); err != nil {
					t.Errorf("WakeHint %s #%d: %v", id, n, err)
					return
				}
			}
		})
	}
	callers.Wait()
	if t.Failed() {
		close(done)
		churn.Wait()
		return
	}
	for i := range agents { // prompts are FIFO: the last one's turn ends last
		last := sent[i][prompts-1]
		h.WaitEvent(fmt.Sprintf("agent-%d", i), func(ev messages.Event) bool {
			return ev.Type == messages.EventTurnTerminal && decode[messages.TurnTerminal](t, ev).MessageID == last
		})
	}
	close(done)
	churn.Wait()

	for i := range agents {
		id := fmt.Sprintf("agent-%d", i)
		admitted := map[string]int{}
		for _, ev := range h.Events(id) {
			if ev.Type == messages.EventMessageAdmitted {
				admitted[decode[messages.MessageAdmitted](t, ev).Envelope.ID]++
			}
		}
		for _, msg := range sent[i] {
			if admitted[msg] != 1 {
				t.Errorf("%s: prompt %s admitted %d times, want 1", id, msg, admitted[msg])
			}
		}
		if n := testkit.CountOfType(h.Events(id), messages.EventTurnTerminal); n < prompts {
			t.Errorf("%s: %d turns, want at least %d", id, n, prompts)
		}
	}
	if retiredCount.Load() == 0 {
		t.Error("no agent retired during the storm: the race was not exercised")
	}
	t.Logf("%d retirements during the storm", retiredCount.Load())
}

// TestTimerWakesRetiredAgentOnce: a timer of an agent whose actor retired
// still fires, activating it, exactly once; also when it comes due while
// the actor is stopping.
func TestTimerWakesRetiredAgentOnce(t *testing.T) {
	for _, when := range []string{"after retirement", "during retirement"} {
		t.Run(when, func(t *testing.T) {
			h := testkit.New(t,
				testkit.Reply("", testkit.Call("s1", actors.SleepToolName, `{"duration_ms":600000}`)),
				testkit.Reply("Woke up."),
			)
			retired := make(chan struct{})
			var once sync.Once
			h.SetFault(func(agent, point string) {
				if point != "retire" {
					return
				}
				once.Do(func() {
					if when == "during retirement" {
						h.Clock.Advance(10 * time.Minute) // the timer comes due while the actor stops
					}
					close(retired)
				})
			})
			h.Prompt("main", "Sleep ten minutes.")
			h.WaitEvent("main", testkit.OfType(messages.EventAgentSlept))
			waitArmed(t, h, 1)
			awaitIdleTimers(t, h, 2) // the timer service's and main's idle timer

			h.Clock.Advance(actors.DefaultIdleTimeout)
			select {
			case <-retired:
			case <-time.After(testkit.WaitTimeout):
				t.Fatal("main did not retire")
			}
			if when == "after retirement" {
				if n := testkit.CountOfType(h.Events("main"), messages.EventTimerFired); n != 0 {
					t.Fatalf("timer fired %d times before it was due", n)
				}
				h.Clock.Advance(9 * time.Minute)
			}
			tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2)))
			if tt.LastAssistantMessage != "Woke up." {
				t.Fatalf("turn after the timer = %+v", tt)
			}
			h.GracefulRestart() // and the fire is not repeated after a restart
			if st, err := h.Runtime.State(context.Background(), "main"); err != nil || len(st.Timers) != 0 {
				t.Fatalf("State = %d timers, %v; want none pending", len(st.Timers), err)
			}
			if n := testkit.CountOfType(h.Events("main"), messages.EventTimerFired); n != 1 {
				t.Fatalf("timer fired %d times, want exactly 1", n)
			}
			if ticks := countAdmitted(t, h.Events("main"), messages.KindTimerTick); ticks != 1 {
				t.Fatalf("%d timer_tick messages, want 1", ticks)
			}
		})
	}
}
