package supervision_test

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/supervision"
)

// waitLimit bounds every wait; tests never sleep, they only time out.
const waitLimit = 10 * time.Second

var errBoom = errors.New("boom")

// flaky is the child under test: it reports its life on events and panics
// on "boom" (with errBoom) and on "poison" (with a permanent error).
type flaky struct{ events chan<- string }

func (f *flaky) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		f.events <- "started"
	case string:
		switch m {
		case "boom":
			panic(errBoom)
		case "poison":
			panic(supervision.Permanent(fmt.Errorf("replay: %w", errBoom)))
		}
		f.events <- m
	}
}

// steady is the sibling that must keep answering.
func steady(c actor.Context) {
	if m, ok := c.Message().(string); ok && m == "ping" {
		c.Respond("pong")
	}
}

// parent spawns flaky and steady and reports them and its terminated children.
type parent struct {
	strategy   *supervision.Strategy
	events     chan<- string
	children   chan<- [2]*actor.PID
	terminated chan<- *actor.PID
}

func (p *parent) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		f := c.Spawn(actor.PropsFromProducer(func() actor.Actor { return &flaky{events: p.events} }))
		s := c.Spawn(actor.PropsFromFunc(steady))
		p.children <- [2]*actor.PID{f, s}
	case *actor.Terminated:
		p.strategy.Forget(m.Who)
		p.terminated <- m.Who
	}
}

type scheduled struct {
	delay time.Duration
	run   func()
}

type gaveUp struct {
	who      *actor.PID
	reason   any
	failures int
}

type harness struct {
	system *actor.ActorSystem
	flaky  *actor.PID
	steady *actor.PID
	// events: flaky sends its lifecycle and echoed messages; buffered so the
	// child never blocks on the test.
	events chan string
	// scheduled: the strategy's scheduler sends each requested restart; the
	// test runs it. Buffered: the scheduler runs on the parent's goroutine.
	scheduled chan scheduled
	// restarts: the restart hook sends each decision, as scheduled does.
	restarts chan supervision.Decision
	// gaveUp: the GiveUp hook sends each call; buffered to count extras.
	gaveUp chan gaveUp
	// terminated: the parent sends each terminated child (also on shutdown).
	terminated chan *actor.PID
}

// newHarness starts an actor system with a parent supervising flaky and
// steady under p, on a frozen clock and a channel-driven scheduler (opts
// override them). Cleanup stops everything and fails the test on leaked
// goroutines.
func newHarness(t *testing.T, p supervision.Policy, opts ...supervision.Option) *harness {
	t.Helper()
	baseline := runtime.NumGoroutine()
	h := &harness{
		events:     make(chan string, 64),
		scheduled:  make(chan scheduled, 16),
		restarts:   make(chan supervision.Decision, 16),
		gaveUp:     make(chan gaveUp, 16),
		terminated: make(chan *actor.PID, 16),
	}
	strategy, err := supervision.NewStrategy(p, append([]supervision.Option{
		supervision.WithClock(func() time.Time { return t0 }),
		supervision.WithRand(fixed(0)),
		supervision.WithScheduler(func(d time.Duration, f func()) { h.scheduled <- scheduled{d, f} }),
		supervision.WithRestartHook(func(_ *actor.PID, _ any, d supervision.Decision) { h.restarts <- d }),
		supervision.WithGiveUp(func(who *actor.PID, reason any, n int) { h.gaveUp <- gaveUp{who, reason, n} }),
	}, opts...)...)
	if err != nil {
		t.Fatalf("NewStrategy: %v", err)
	}
	h.system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	children := make(chan [2]*actor.PID, 1)
	props := actor.PropsFromProducer(func() actor.Actor {
		return &parent{strategy: strategy, events: h.events, children: children, terminated: h.terminated}
	}, actor.WithSupervisor(strategy))
	parentPID := h.system.Root.Spawn(props)
	pids := recv(t, children, "children spawned")
	h.flaky, h.steady = pids[0], pids[1]
	t.Cleanup(func() {
		if err := h.system.Root.StopFuture(parentPID).Wait(); err != nil {
			t.Errorf("stop parent: %v", err)
		}
		h.system.Shutdown()
		expectNoLeak(t, baseline)
	})
	h.expectEvent(t, "started")
	return h
}

func (h *harness) expectEvent(t *testing.T, want string) {
	t.Helper()
	if got := recv(t, h.events, "flaky event "+want); got != want {
		t.Fatalf("flaky event = %q, want %q", got, want)
	}
}

// ping asks the sibling and fails unless it answers.
func (h *harness) ping(t *testing.T) {
	t.Helper()
	got, err := h.system.Root.RequestFuture(h.steady, "ping", waitLimit).Result()
	if err != nil || got != "pong" {
		t.Fatalf("sibling ping = %v, %v, want pong, nil", got, err)
	}
}

func TestStrategyRestartsWithBackoffThenGivesUp(t *testing.T) {
	p := supervision.Policy{
		MaxRestarts: 3, Within: time.Minute,
		InitialBackoff: 100 * time.Millisecond, MaxBackoff: 250 * time.Millisecond, Multiplier: 2,
	}
	h := newHarness(t, p)
	wantDelays := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 250 * time.Millisecond}
	for i, want := range wantDelays {
		h.system.Root.Send(h.flaky, "boom")
		s := recv(t, h.scheduled, "restart scheduled")
		if s.delay != want {
			t.Errorf("restart %d delay = %v, want %v", i+1, s.delay, want)
		}
		if d := recv(t, h.restarts, "restart hook"); d.FailuresInWindow != i+1 || d.Delay != want {
			t.Errorf("restart %d hook = %+v, want %d failures, delay %v", i+1, d, i+1, want)
		}
		// While the restart waits, the child is suspended: this message
		// queues up, and the sibling keeps answering.
		hello := fmt.Sprintf("hello %d", i+1)
		h.system.Root.Send(h.flaky, hello)
		h.ping(t)
		s.run()
		h.expectEvent(t, "started")
		h.expectEvent(t, hello) // delivered to the new instance, after Started
	}

	h.system.Root.Send(h.flaky, "boom")
	h.system.Root.Send(h.flaky, "late") // queued behind the failure: Stop drops it
	g := recv(t, h.gaveUp, "GiveUp")
	if !g.who.Equal(h.flaky) || g.failures != p.MaxRestarts+1 || !errors.Is(g.reason.(error), errBoom) {
		t.Errorf("GiveUp(%v, %v, %d), want GiveUp(%v, %v, %d)", g.who, g.reason, g.failures, h.flaky, errBoom, p.MaxRestarts+1)
	}
	if who := recv(t, h.terminated, "flaky terminated"); !who.Equal(h.flaky) {
		t.Errorf("parent got Terminated for %v, want %v", who, h.flaky)
	}
	h.ping(t)
	expectNone(t, h.events, "flaky event after its stop")
	expectNone(t, h.gaveUp, "second GiveUp")
	expectNone(t, h.scheduled, "restart after GiveUp")
}

func TestStrategyStopsPermanentFailureAtOnce(t *testing.T) {
	h := newHarness(t, supervision.DefaultPolicy())
	h.system.Root.Send(h.flaky, "poison")
	g := recv(t, h.gaveUp, "GiveUp")
	if !g.who.Equal(h.flaky) || g.failures != 1 || !supervision.IsPermanent(g.reason) {
		t.Errorf("GiveUp(%v, %v, %d), want GiveUp(%v, permanent, 1)", g.who, g.reason, g.failures, h.flaky)
	}
	if who := recv(t, h.terminated, "flaky terminated"); !who.Equal(h.flaky) {
		t.Errorf("parent got Terminated for %v, want %v", who, h.flaky)
	}
	h.ping(t)
	expectNone(t, h.scheduled, "restart of a permanent failure")
}

func TestStrategyDefaultSchedulerRestarts(t *testing.T) {
	p := supervision.DefaultPolicy()
	p.InitialBackoff = time.Millisecond
	h := newHarness(t, p, supervision.WithClock(time.Now), supervision.WithScheduler(nil))
	for range p.MaxRestarts {
		h.system.Root.Send(h.flaky, "boom")
		h.expectEvent(t, "started") // after a real time.AfterFunc delay
	}
	h.system.Root.Send(h.flaky, "boom")
	if g := recv(t, h.gaveUp, "GiveUp"); g.failures != p.MaxRestarts+1 {
		t.Errorf("GiveUp failures = %d, want %d", g.failures, p.MaxRestarts+1)
	}
	recv(t, h.terminated, "flaky terminated")
}

func TestStrategyRejectsInvalidPolicy(t *testing.T) {
	p := supervision.DefaultPolicy()
	p.Within = 0
	if _, err := supervision.NewStrategy(p); !errors.Is(err, supervision.ErrInvalidPolicy) {
		t.Errorf("NewStrategy(Within 0) error = %v, want ErrInvalidPolicy", err)
	}
}

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitLimit):
		t.Fatalf("timed out after %v waiting for %s", waitLimit, what)
		panic("unreachable")
	}
}

// expectNone checks that nothing extra is queued on ch. Callers first wait
// for an event that follows the unwanted one, so no sleep is needed.
func expectNone[T any](t *testing.T, ch <-chan T, what string) {
	t.Helper()
	select {
	case v := <-ch:
		t.Errorf("unexpected %s: %+v", what, v)
	default:
	}
}

// expectNoLeak polls until the goroutine count is back to baseline.
func expectNoLeak(t *testing.T, baseline int) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for runtime.NumGoroutine() > baseline {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			stacks := string(buf[:runtime.Stack(buf, true)])
			t.Errorf("goroutines = %d after shutdown, want at most %d:\n%s", runtime.NumGoroutine(), baseline, strings.TrimSpace(stacks))
			return
		}
		<-tick.C
	}
}
