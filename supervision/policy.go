package supervision

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrInvalidPolicy is returned, wrapped with the offending field, by
// Policy.Validate and NewStrategy.
var ErrInvalidPolicy = errors.New("supervision: invalid policy")

// Policy is a restart budget and a backoff curve for one supervised actor.
//
// A failure is allowed a restart while at most MaxRestarts failures fall
// within the sliding window Within; the failure that makes it MaxRestarts+1
// gives up (Erlang/OTP's intensity and period). Before the n-th restart in
// the window the supervisor waits Backoff(p, n, rnd): InitialBackoff ×
// Multiplier^(n-1), capped at MaxBackoff, minus up to a Jitter fraction.
//
// Policy is a plain value: copy it freely and share it between goroutines.
type Policy struct {
	// MaxRestarts is the number of restarts allowed within Within; 0 gives
	// up on the first failure.
	MaxRestarts int
	// Within is the length of the sliding window; failures older than it
	// are forgotten. It must be positive: a window of "forever" would
	// eventually quarantine an agent that fails once a day.
	Within time.Duration
	// InitialBackoff is the delay before the first restart in a window.
	InitialBackoff time.Duration
	// MaxBackoff caps every delay.
	MaxBackoff time.Duration
	// Multiplier grows the delay from one failure in the window to the
	// next; 1 keeps it constant.
	Multiplier float64
	// Jitter is the fraction (0..1) of each delay that is randomised away:
	// the delay is drawn from [d×(1-Jitter), d]. 1 is full jitter, 0.5 is
	// equal jitter, 0 is none. See Backoff.
	Jitter float64
}

// DefaultPolicy returns the policy for agent actors: 5 restarts within 60 s,
// backoff from 100 ms doubling to a 30 s cap, with 20 % jitter.
//
// The budget follows the Erlang/OTP guidance in
// research/reliability-and-user-needs.md §2.4: intensity is the burst we
// tolerate, period the sustained rate, and for a per-agent supervisor about
// 3-5 restarts over 30-60 s. Every agent restart replays its journal, so a
// few quick attempts catch transient faults, while a sixth panic within a
// minute is a deterministic bug (a poisoned journal or message) and the agent
// is quarantined for the operator rather than crash-looping (R10 in §2.8: no
// unbounded restart loop, bounded log volume). Within the default budget the
// delays are 100, 200, 400, 800 and 1600 ms, so a quarantine decision is made
// in about 3 s; the 30 s cap matters for larger budgets. The jitter spreads
// out agents that hit the same bug at the same moment without changing the
// order of magnitude of the delay.
func DefaultPolicy() Policy {
	return Policy{
		MaxRestarts:    5,
		Within:         60 * time.Second,
		InitialBackoff: 100 * time.Millisecond,
		MaxBackoff:     30 * time.Second,
		Multiplier:     2,
		Jitter:         0.2,
	}
}

// Validate reports the first field that is out of range, as an error
// wrapping ErrInvalidPolicy.
func (p Policy) Validate() error {
	switch {
	case p.MaxRestarts < 0:
		return invalid("MaxRestarts", p.MaxRestarts, "must not be negative")
	case p.Within <= 0:
		return invalid("Within", p.Within, "must be positive")
	case p.InitialBackoff < 0:
		return invalid("InitialBackoff", p.InitialBackoff, "must not be negative")
	case p.MaxBackoff < p.InitialBackoff:
		return invalid("MaxBackoff", p.MaxBackoff, "must not be less than InitialBackoff")
	case math.IsNaN(p.Multiplier) || math.IsInf(p.Multiplier, 0) || p.Multiplier < 1:
		return invalid("Multiplier", p.Multiplier, "must be a finite number of at least 1")
	case math.IsNaN(p.Jitter) || p.Jitter < 0 || p.Jitter > 1:
		return invalid("Jitter", p.Jitter, "must be between 0 and 1")
	}
	return nil
}

func invalid(field string, value any, rule string) error {
	return fmt.Errorf("%w: %s %v %s", ErrInvalidPolicy, field, value, rule)
}
