package supervision

import "time"

// Decision is what a Tracker advises for one failure: restart after Delay,
// or give up. Exactly one of Restart and GiveUp is true.
type Decision struct {
	// Restart is true while the failure budget allows another restart.
	Restart bool
	// Delay is the backoff to wait before restarting; zero when giving up.
	Delay time.Duration
	// FailuresInWindow counts the failures within Policy.Within, this one
	// included. It is at most MaxRestarts+1, the count that gives up.
	FailuresInWindow int
	// GiveUp is true when more than MaxRestarts failures fall within the
	// window: the actor should be stopped, not restarted.
	GiveUp bool
}

// Tracker is the failure budget of one supervised actor: the times of its
// recent failures in a sliding window of Policy.Within. Failures older than
// the window are forgotten, so an actor that fails once a day is never given
// up on. It keeps at most MaxRestarts+1 times, whatever the failure rate.
//
// Time is passed in by the caller (from an injected clock), never read from
// the system. A Tracker is not safe for concurrent use; its owner guards it.
type Tracker struct {
	policy Policy
	rnd    func() float64
	// times holds the failures still in the window, oldest first.
	times []time.Time
}

// NewTracker returns an empty Tracker for p. rnd jitters the backoff as in
// Backoff; nil uses math/rand/v2. p should be valid (see Policy.Validate).
func NewTracker(p Policy, rnd func() float64) *Tracker {
	return &Tracker{policy: p, rnd: rnd}
}

// Record notes a failure at now and decides what to do about it. Once it
// gives up, it keeps giving up until enough failures leave the window or
// Reset is called.
func (t *Tracker) Record(now time.Time) Decision {
	t.forget(now)
	t.times = append(t.times, now)
	if limit := t.policy.MaxRestarts + 1; len(t.times) > limit {
		t.times = append(t.times[:0], t.times[len(t.times)-limit:]...)
	}
	n := len(t.times)
	if n > t.policy.MaxRestarts {
		return Decision{GiveUp: true, FailuresInWindow: n}
	}
	return Decision{Restart: true, Delay: Backoff(t.policy, n, t.rnd), FailuresInWindow: n}
}

// Failures returns the number of failures within the window ending at now.
func (t *Tracker) Failures(now time.Time) int {
	t.forget(now)
	return len(t.times)
}

// Reset forgets every failure.
func (t *Tracker) Reset() { t.times = t.times[:0] }

// forget drops the failures that are Within or more before now.
func (t *Tracker) forget(now time.Time) {
	keep := 0
	for keep < len(t.times) && now.Sub(t.times[keep]) >= t.policy.Within {
		keep++
	}
	if keep > 0 {
		t.times = append(t.times[:0], t.times[keep:]...)
	}
}
