package timers_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/actors/timers"
)

// timerWait bounds every wait of these tests. It is a failure bound, not
// synchronization: waits end as soon as the awaited fire arrives.
const timerWait = 10 * time.Second

// timerT0 is the fake clock's start; offsets in the tables are from it.
var timerT0 = time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)

// countingClock is a fake clock that counts the AfterFuncs armed on it
// (created, neither stopped nor fired), so tests can check that the
// service keeps exactly one armed, and none once stopped.
type countingClock struct {
	*clockwork.FakeClock
	armed atomic.Int64
}

func (c *countingClock) AfterFunc(d time.Duration, f func()) clockwork.Timer {
	c.armed.Add(1)
	t := c.FakeClock.AfterFunc(d, func() {
		c.armed.Add(-1)
		f()
	})
	return &countedTimer{Timer: t, armed: &c.armed}
}

// countedTimer is a Timer of countingClock; only Stop is used by the service.
type countedTimer struct {
	clockwork.Timer
	armed *atomic.Int64
}

func (t *countedTimer) Stop() bool {
	stopped := t.Timer.Stop()
	if stopped {
		t.armed.Add(-1)
	}
	return stopped
}

// timerRig runs a timer service on a real actor system and a fake clock.
type timerRig struct {
	t     *testing.T
	sys   *actor.ActorSystem
	clock *countingClock
	pid   *actor.PID
	// fires receives every fire; fire is called on the service's goroutine
	// and must not block, so the buffer holds more fires than any test makes.
	fires chan timers.Fire
}

// newTimerRig spawns the service; fire, if not nil, runs before a fire is
// recorded. Cleanup stops the service and the actor system.
func newTimerRig(t *testing.T, fire func(timers.Fire)) *timerRig {
	t.Helper()
	r := &timerRig{
		t:     t,
		sys:   actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) })),
		clock: &countingClock{FakeClock: clockwork.NewFakeClockAt(timerT0)},
		fires: make(chan timers.Fire, 4096),
	}
	r.pid = r.sys.Root.Spawn(timers.ServiceProps(r.clock, func(f timers.Fire) {
		if fire != nil {
			fire(f)
		}
		r.fires <- f
	}))
	t.Cleanup(func() {
		r.stop()
		r.sys.Shutdown()
	})
	return r
}

func (r *timerRig) send(msg any) { r.sys.Root.Send(r.pid, msg) }

func (r *timerRig) stop() {
	if err := r.sys.Root.StopFuture(r.pid).Wait(); err != nil {
		r.t.Fatalf("stop timer service: %v", err)
	}
}

// pending asks for the armed timers. Its answer is also a barrier: every
// message sent to the service before it has been handled.
func (r *timerRig) pending() []timers.Schedule {
	r.t.Helper()
	res, err := r.sys.Root.RequestFuture(r.pid, timers.Pending{}, timerWait).Result()
	if err != nil {
		r.t.Fatalf("Pending: %v", err)
	}
	return res.([]timers.Schedule)
}

// advance moves the clock once the service has armed its AfterFunc.
func (r *timerRig) advance(d time.Duration) {
	r.t.Helper()
	if len(r.pending()) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), timerWait)
		defer cancel()
		if err := r.clock.BlockUntilContext(ctx, 1); err != nil {
			r.t.Fatalf("timer service armed no AfterFunc: %v", err)
		}
	}
	r.clock.Advance(d)
}

// collect waits for n fires, then checks that no other fire came with them.
func (r *timerRig) collect(n int) []timers.Fire {
	r.t.Helper()
	deadline := time.NewTimer(timerWait)
	defer deadline.Stop()
	got := make([]timers.Fire, 0, n)
	for len(got) < n {
		select {
		case f := <-r.fires:
			got = append(got, f)
		case <-deadline.C:
			r.t.Fatalf("got %d fire(s) after %v, want %d: %v", len(got), timerWait, n, describeFires(got))
		}
	}
	r.pending() // the fires of one batch are made in one Receive: it is over
	if extra := len(r.fires); extra > 0 {
		r.t.Fatalf("got %d fire(s) more than the %d expected", extra, n)
	}
	for _, f := range got {
		if want := timers.FireID(f.TimerID, f.DueAt); f.FireID != want {
			r.t.Errorf("fire %s/%s: FireID = %q, want %q", f.AgentID, f.TimerID, f.FireID, want)
		}
	}
	return got
}

// sched builds a Schedule due at timerT0+off.
func sched(agent, timer string, off time.Duration) timers.Schedule {
	return timers.Schedule{AgentID: agent, TimerID: timer, DueAt: timerT0.Add(off)}
}

// describeFires renders fires as "agent/timer@offset".
func describeFires(fs []timers.Fire) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = fmt.Sprintf("%s/%s@%v", f.AgentID, f.TimerID, f.DueAt.Sub(timerT0))
	}
	return out
}

// describePending renders armed timers as "agent/timer@offset".
func describePending(ts []timers.Schedule) []string {
	out := make([]string, len(ts))
	for i, s := range ts {
		out[i] = fmt.Sprintf("%s/%s@%v", s.AgentID, s.TimerID, s.DueAt.Sub(timerT0))
	}
	return out
}

// timerStep sends a message (if any), then advances the clock (if
// advance > 0), then expects exactly fires, in order, and then exactly
// pending armed (nil: none).
type timerStep struct {
	send    any
	advance time.Duration
	fires   []string
	pending []string
}

func TestTimerService(t *testing.T) {
	tests := []struct {
		name  string
		steps []timerStep
	}{
		{"fires once when due, not before", []timerStep{
			{send: sched("a", "t1", 10*time.Second), pending: []string{"a/t1@10s"}},
			{advance: 10*time.Second - time.Nanosecond, pending: []string{"a/t1@10s"}},
			{advance: time.Nanosecond, fires: []string{"a/t1@10s"}},
			{advance: time.Hour},
		}},
		{"rescheduling later replaces", []timerStep{
			{send: sched("a", "t1", 10*time.Second), pending: []string{"a/t1@10s"}},
			{send: sched("a", "t1", 20*time.Second), pending: []string{"a/t1@20s"}},
			{advance: 10 * time.Second, pending: []string{"a/t1@20s"}},
			{advance: 10 * time.Second, fires: []string{"a/t1@20s"}},
		}},
		{"rescheduling earlier replaces", []timerStep{
			{send: sched("a", "t1", 20*time.Second), pending: []string{"a/t1@20s"}},
			{send: sched("a", "t1", 5*time.Second), pending: []string{"a/t1@5s"}},
			{advance: 5 * time.Second, fires: []string{"a/t1@5s"}},
			{advance: time.Minute},
		}},
		{"cancel prevents firing", []timerStep{
			{send: sched("a", "t1", 10*time.Second), pending: []string{"a/t1@10s"}},
			{send: sched("a", "t2", 20*time.Second), pending: []string{"a/t1@10s", "a/t2@20s"}},
			{send: timers.Cancel{AgentID: "a", TimerID: "t1"}, pending: []string{"a/t2@20s"}},
			{send: &timers.Cancel{AgentID: "a", TimerID: "unknown"}, pending: []string{"a/t2@20s"}},
			{send: timers.Cancel{AgentID: "b", TimerID: "t2"}, pending: []string{"a/t2@20s"}},
			{advance: 20 * time.Second, fires: []string{"a/t2@20s"}},
		}},
		{"cancel the only timer", []timerStep{
			{send: sched("a", "t1", 10*time.Second), pending: []string{"a/t1@10s"}},
			{send: timers.Cancel{AgentID: "a", TimerID: "t1"}},
			{advance: time.Hour},
		}},
		{"cancel agent timers cancels only that agent's", []timerStep{
			{send: sched("a", "t1", 10*time.Second), pending: []string{"a/t1@10s"}},
			{send: sched("b", "t1", 10*time.Second), pending: []string{"a/t1@10s", "b/t1@10s"}},
			{send: sched("a", "t2", 30*time.Second), pending: []string{"a/t1@10s", "b/t1@10s", "a/t2@30s"}},
			{send: &timers.Schedule{AgentID: "b", TimerID: "t2", DueAt: timerT0.Add(20 * time.Second)},
				pending: []string{"a/t1@10s", "b/t1@10s", "b/t2@20s", "a/t2@30s"}},
			{send: timers.CancelAgent{AgentID: "a"}, pending: []string{"b/t1@10s", "b/t2@20s"}},
			{send: &timers.CancelAgent{AgentID: "nobody"}, pending: []string{"b/t1@10s", "b/t2@20s"}},
			{advance: 30 * time.Second, fires: []string{"b/t1@10s", "b/t2@20s"}},
		}},
		{"past-due timers fire at once", []timerStep{
			{send: sched("a", "t1", -time.Hour), fires: []string{"a/t1@-1h0m0s"}},
			{send: sched("a", "t2", 0), fires: []string{"a/t2@0s"}},
			{send: sched("a", "t3", time.Second), pending: []string{"a/t3@1s"}},
			{send: sched("a", "t3", -time.Second), fires: []string{"a/t3@-1s"}},
		}},
		{"ties fire by agent, then timer id", []timerStep{
			{send: sched("b", "t1", 10*time.Second), pending: []string{"b/t1@10s"}},
			{send: sched("a", "t2", 10*time.Second), pending: []string{"a/t2@10s", "b/t1@10s"}},
			{send: sched("a", "t1", 10*time.Second), pending: []string{"a/t1@10s", "a/t2@10s", "b/t1@10s"}},
			{send: sched("c", "t0", 5*time.Second), pending: []string{"c/t0@5s", "a/t1@10s", "a/t2@10s", "b/t1@10s"}},
			{advance: 10 * time.Second, fires: []string{"c/t0@5s", "a/t1@10s", "a/t2@10s", "b/t1@10s"}},
		}},
		{"timers due one after another re-arm", []timerStep{
			{send: sched("a", "t1", time.Second), pending: []string{"a/t1@1s"}},
			{send: sched("a", "t2", 2*time.Second), pending: []string{"a/t1@1s", "a/t2@2s"}},
			{send: sched("a", "t3", 3*time.Second), pending: []string{"a/t1@1s", "a/t2@2s", "a/t3@3s"}},
			{advance: time.Second, fires: []string{"a/t1@1s"}, pending: []string{"a/t2@2s", "a/t3@3s"}},
			{advance: time.Second, fires: []string{"a/t2@2s"}, pending: []string{"a/t3@3s"}},
			{advance: time.Second, fires: []string{"a/t3@3s"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTimerRig(t, nil)
			for i, st := range tt.steps {
				if st.send != nil {
					r.send(st.send)
				}
				if st.advance > 0 {
					r.advance(st.advance)
				}
				if got := describeFires(r.collect(len(st.fires))); !slices.Equal(got, st.fires) {
					t.Fatalf("step %d: fires = %v, want %v", i, got, st.fires)
				}
				if got := describePending(r.pending()); !slices.Equal(got, st.pending) {
					t.Fatalf("step %d: pending = %v, want %v", i, got, st.pending)
				}
				if got, want := r.clock.armed.Load(), int64(min(1, len(st.pending))); got != want {
					t.Fatalf("step %d: %d AfterFunc(s) armed, want %d", i, got, want)
				}
			}
		})
	}
}

func TestTimerFireIDIsTimerAtDueNanos(t *testing.T) {
	r := newTimerRig(t, nil)
	r.send(sched("a", "t1", 20*time.Second))
	r.advance(20 * time.Second)
	got := r.collect(1)[0]
	want := timers.Fire{AgentID: "a", TimerID: "t1", FireID: "t1@1795327220000000000", DueAt: timerT0.Add(20 * time.Second)}
	if got.AgentID != want.AgentID || got.TimerID != want.TimerID || got.FireID != want.FireID || !got.DueAt.Equal(want.DueAt) {
		t.Fatalf("fire = %+v, want %+v", got, want)
	}
}

func TestTimerManyFireInDueOrderOnce(t *testing.T) {
	const n = 1000
	r := newTimerRig(t, nil)
	rng := rand.New(rand.NewPCG(1, 14))
	armed := make(map[string]timers.Schedule, n)
	for i := range n {
		// 600 distinct seconds for 1,000 timers: many ties.
		s := sched(fmt.Sprintf("agent%d", rng.IntN(10)), fmt.Sprintf("t%d", i), time.Duration(1+rng.IntN(600))*time.Second)
		r.send(s)
		armed[s.AgentID+"/"+s.TimerID] = s
	}
	for k, s := range armed { // move some timers: heap.Fix
		if rng.IntN(7) == 0 {
			s.DueAt = timerT0.Add(time.Duration(1+rng.IntN(600)) * time.Second)
			r.send(s)
			armed[k] = s
		}
	}
	want := make([]timers.Schedule, 0, n)
	for _, s := range armed {
		want = append(want, s)
	}
	slices.SortFunc(want, func(a, b timers.Schedule) int {
		if c := a.DueAt.Compare(b.DueAt); c != 0 {
			return c
		}
		if c := strings.Compare(a.AgentID, b.AgentID); c != 0 {
			return c
		}
		return strings.Compare(a.TimerID, b.TimerID)
	})
	if got := r.pending(); !slices.EqualFunc(got, want, sameTimer) {
		t.Fatalf("pending differs from the %d scheduled timers sorted (got %d)", n, len(got))
	}
	if got := r.clock.armed.Load(); got != 1 {
		t.Fatalf("%d AfterFuncs armed for %d timers, want 1", got, n)
	}

	r.advance(time.Hour)
	fires := r.collect(n)
	seen := make(map[string]bool, n)
	for i, f := range fires {
		if seen[f.FireID] {
			t.Fatalf("fire %s delivered twice", f.FireID)
		}
		seen[f.FireID] = true
		w := want[i]
		if f.AgentID != w.AgentID || f.TimerID != w.TimerID || !f.DueAt.Equal(w.DueAt) {
			t.Fatalf("fire %d = %s/%s@%v, want %s/%s@%v", i, f.AgentID, f.TimerID, f.DueAt.Sub(timerT0),
				w.AgentID, w.TimerID, w.DueAt.Sub(timerT0))
		}
	}
	if p := r.pending(); len(p) != 0 {
		t.Fatalf("%d timers still pending after all fired", len(p))
	}
	if got := r.clock.armed.Load(); got != 0 {
		t.Fatalf("%d AfterFuncs armed with no timer, want 0", got)
	}
}

func sameTimer(a, b timers.Schedule) bool {
	return a.AgentID == b.AgentID && a.TimerID == b.TimerID && a.DueAt.Equal(b.DueAt)
}

func TestTimerServiceKeepsTimersAcrossRestart(t *testing.T) {
	var panicked atomic.Bool
	r := newTimerRig(t, func(f timers.Fire) {
		if f.TimerID == "boom" && panicked.CompareAndSwap(false, true) {
			panic("fire failed")
		}
	})
	r.send(sched("a", "boom", 10*time.Second))
	r.send(sched("a", "ok", 10*time.Second))
	r.send(sched("a", "later", 20*time.Second))
	r.advance(10 * time.Second)
	// boom was taken off the heap before its fire panicked; the restarted
	// service goes on with the rest.
	if got, want := describeFires(r.collect(1)), []string{"a/ok@10s"}; !slices.Equal(got, want) {
		t.Fatalf("fires = %v, want %v", got, want)
	}
	if got, want := describePending(r.pending()), []string{"a/later@20s"}; !slices.Equal(got, want) {
		t.Fatalf("pending after restart = %v, want %v", got, want)
	}
	r.advance(10 * time.Second)
	if got, want := describeFires(r.collect(1)), []string{"a/later@20s"}; !slices.Equal(got, want) {
		t.Fatalf("fires = %v, want %v", got, want)
	}
	if !panicked.Load() {
		t.Fatal("fire of boom never ran")
	}
}

func TestTimerServiceStopLeavesNothingRunning(t *testing.T) {
	r := newTimerRig(t, nil)
	r.send(sched("a", "t1", time.Minute))
	r.send(sched("b", "t1", time.Hour))
	if p := r.pending(); len(p) != 2 || r.clock.armed.Load() != 1 {
		t.Fatalf("before stop: %d pending, %d AfterFuncs armed; want 2 and 1", len(p), r.clock.armed.Load())
	}
	r.stop()
	if got := r.clock.armed.Load(); got != 0 {
		t.Fatalf("%d AfterFunc(s) still armed after stop, want 0", got)
	}
	r.clock.Advance(2 * time.Hour) // nothing is armed: no callback runs
	if len(r.fires) != 0 {
		t.Fatalf("a stopped timer service fired %d time(s)", len(r.fires))
	}
	waitNoTimersGoroutines(t)
}

// waitNoTimersGoroutines fails t unless every goroutine running code of
// the timers package ends within timerWait. It polls: goroutines that are
// ending get a moment to end.
func waitNoTimersGoroutines(t *testing.T) {
	t.Helper()
	deadline := time.NewTimer(timerWait)
	defer deadline.Stop()
	poll := time.NewTicker(10 * time.Millisecond) // polling interval, not synchronization
	defer poll.Stop()
	for {
		left := timersGoroutines()
		if len(left) == 0 {
			return
		}
		select {
		case <-poll.C:
		case <-deadline.C:
			t.Fatalf("%d goroutine(s) of the timers package still running:\n%s", len(left), strings.Join(left, "\n\n"))
		}
	}
}

func timersGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "holon-actors/actors/timers.") {
			out = append(out, g)
		}
	}
	return out
}
