package supervision

import (
	"fmt"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// GiveUpFunc is told that the strategy stopped who for good, after failures
// failures within the window (the last one with reason). It runs on the
// goroutine that delivered the failure and must not block: send a message.
type GiveUpFunc func(who *actor.PID, reason any, failures int)

// RestartFunc is told that who will be restarted after d.Delay, the
// d.FailuresInWindow-th failure in the window having been reason. It runs
// like a GiveUpFunc and must not block.
type RestartFunc func(who *actor.PID, reason any, d Decision)

// Scheduler calls f once, on any goroutine, after at least d.
// time.AfterFunc is the default; tests inject a fake that runs f on demand.
type Scheduler func(d time.Duration, f func())

// Option configures a Strategy.
type Option func(*Strategy)

// WithDecider replaces Decide as the classifier of panics; nil restores it.
// RestartDirective means "restart within the budget", StopDirective "stop
// now" (GiveUp is still called), ResumeDirective resumes the child without
// counting the failure, EscalateDirective hands the failure to the
// supervisor's parent (a guardian cannot escalate: protoactor panics).
// Any other value stops the child, which is never left suspended.
func WithDecider(d actor.DeciderFunc) Option {
	return func(s *Strategy) {
		if d == nil {
			d = Decide
		}
		s.decider = d
	}
}

// WithGiveUp sets the hook called once for every child the strategy stops.
func WithGiveUp(f GiveUpFunc) Option { return func(s *Strategy) { s.giveUp = f } }

// WithRestartHook sets the hook called for every restart the strategy
// schedules, before the delay starts.
func WithRestartHook(f RestartFunc) Option { return func(s *Strategy) { s.onRestart = f } }

// WithClock sets the clock that stamps failures; nil restores the default,
// time.Now.
func WithClock(now func() time.Time) Option {
	return func(s *Strategy) {
		if now == nil {
			now = time.Now
		}
		s.now = now
	}
}

// WithScheduler sets how delayed restarts are run; nil restores the default,
// time.AfterFunc. Every restart goes through it, even with a zero delay.
func WithScheduler(f Scheduler) Option {
	return func(s *Strategy) {
		if f == nil {
			f = afterFunc
		}
		s.schedule = f
	}
}

func afterFunc(d time.Duration, f func()) { time.AfterFunc(d, f) }

// WithRand sets the source of jitter, as for Backoff.
func WithRand(rnd func() float64) Option { return func(s *Strategy) { s.rnd = rnd } }

// Strategy is an actor.SupervisorStrategy applying a Policy to each failing
// child on its own (one-for-one): it restarts the child after a capped,
// jittered exponential backoff while the child's failures within the window
// stay within the budget, and past it stops the child and calls GiveUp
// instead of letting it crash-loop. Siblings are never touched.
//
// Install it on the parent's props with actor.WithSupervisor, or on
// root-spawned actors with actor.WithGuardian. The restart is scheduled,
// never waited for: the supervisor's goroutine is not blocked, and the
// child's mailbox stays suspended (messages queue up, unprocessed) until the
// delay ends.
//
// A Strategy keeps one Tracker per child, keyed by PID. The parent should
// call Forget when it receives the child's *actor.Terminated; trackers of
// children that stopped failing are also dropped, by the first failure of
// any child after their window emptied (at most one sweep per window).
// Its methods are safe for concurrent use, so one Strategy may serve many
// parents.
type Strategy struct {
	policy    Policy
	decider   actor.DeciderFunc
	giveUp    GiveUpFunc
	onRestart RestartFunc
	now       func() time.Time
	schedule  Scheduler
	rnd       func() float64

	mu sync.Mutex
	// children maps childKey(pid) to that child's budget; guarded by mu.
	children map[string]*childState
	// lastSweep is when idle children were last dropped; guarded by mu.
	lastSweep time.Time
	// seq numbers scheduled restarts; guarded by mu.
	seq uint64
}

// childState is the budget of one child and its scheduled restart, if any.
type childState struct {
	tracker *Tracker
	// pending is the seq of the restart waiting for its delay; 0 if none.
	pending uint64
}

var _ actor.SupervisorStrategy = (*Strategy)(nil)

// NewStrategy returns a Strategy for p, or an error wrapping
// ErrInvalidPolicy if p does not validate.
func NewStrategy(p Policy, opts ...Option) (*Strategy, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("new strategy: %w", err)
	}
	s := &Strategy{
		policy:   p,
		decider:  Decide,
		now:      time.Now,
		schedule: afterFunc,
		children: make(map[string]*childState),
	}
	for _, opt := range opts {
		opt(s)
	}
	return s, nil
}

// HandleFailure implements actor.SupervisorStrategy. protoactor calls it
// with the child's mailbox suspended; rs, the child's own statistics, is
// ignored (its clock is not injectable and it grows without bound).
func (s *Strategy) HandleFailure(system *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, _ *actor.RestartStatistics, reason, message any) {
	switch directive := s.decider(reason); directive {
	case actor.RestartDirective:
		s.restartOrStop(system, sup, child, reason)
	case actor.ResumeDirective:
		publish(system, child, reason, directive)
		sup.ResumeChildren(child)
	case actor.EscalateDirective:
		sup.EscalateFailure(reason, message) // the parent's supervisor logs it
	default: // StopDirective, or a decider bug: never leave the child suspended
		s.stop(system, sup, child, reason, s.recordFinal(child))
	}
}

// Forget drops the budget of who and cancels its scheduled restart, if any.
// Call it when who has terminated.
func (s *Strategy) Forget(who *actor.PID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.children, childKey(who))
}

func (s *Strategy) restartOrStop(system *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, reason any) {
	d, seq := s.record(child)
	if d.GiveUp {
		s.stop(system, sup, child, reason, d.FailuresInWindow)
		return
	}
	if s.onRestart != nil {
		s.onRestart(child, reason, d)
	}
	s.schedule(d.Delay, func() {
		if s.take(child, seq) {
			publish(system, child, reason, actor.RestartDirective)
			sup.RestartChildren(child)
		}
	})
}

func (s *Strategy) stop(system *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, reason any, failures int) {
	publish(system, child, reason, actor.StopDirective)
	sup.StopChildren(child)
	if s.giveUp != nil {
		s.giveUp(child, reason, failures)
	}
}

// record counts a failure of child and, unless it gives up, marks a restart
// as pending under the returned seq. Giving up drops the child's budget.
func (s *Strategy) record(child *actor.PID) (Decision, uint64) {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	key := childKey(child)
	d := s.budget(key, now).Record(now)
	if d.GiveUp {
		delete(s.children, key)
		return d, 0
	}
	s.seq++
	s.children[key].pending = s.seq
	return d, s.seq
}

// recordFinal counts a failure that stops child whatever the budget, drops
// the child's budget and returns the failures in its window.
func (s *Strategy) recordFinal(child *actor.PID) int {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	key := childKey(child)
	d := s.budget(key, now).Record(now)
	delete(s.children, key)
	return d.FailuresInWindow
}

// budget returns the tracker of key, creating it; s.mu must be held.
func (s *Strategy) budget(key string, now time.Time) *Tracker {
	s.sweep(now)
	c := s.children[key]
	if c == nil {
		c = &childState{tracker: NewTracker(s.policy, s.rnd)}
		s.children[key] = c
	}
	return c.tracker
}

// take claims the pending restart seq of child; false if it was cancelled.
func (s *Strategy) take(child *actor.PID, seq uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.children[childKey(child)]
	if c == nil || c.pending != seq {
		return false
	}
	c.pending = 0
	return true
}

// sweep drops, at most once per window, the budgets of children with no
// failure left in the window and no restart pending: they are the same as
// fresh ones, so the map only holds children that failed recently.
func (s *Strategy) sweep(now time.Time) {
	if now.Sub(s.lastSweep) < s.policy.Within {
		return
	}
	s.lastSweep = now
	for key, c := range s.children {
		if c.pending == 0 && c.tracker.Failures(now) == 0 {
			delete(s.children, key)
		}
	}
}

// childKey identifies a child across its restarts (which keep the PID).
func childKey(pid *actor.PID) string { return pid.Address + "/" + pid.Id }

// publish mirrors protoactor's own strategies, which report every directive
// on the event stream as an *actor.SupervisorEvent.
func publish(system *actor.ActorSystem, child *actor.PID, reason any, d actor.Directive) {
	if system == nil || system.EventStream == nil {
		return
	}
	system.EventStream.Publish(&actor.SupervisorEvent{Child: child, Reason: reason, Directive: d})
}
