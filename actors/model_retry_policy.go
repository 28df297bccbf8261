package actors

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/providers"
)

// ModelRetry configures the durable retry of a turn whose model round
// failed with a retryable failure (rate limit, overload, connection, 5xx,
// timeout, or a breaker opened by those): instead of failing, the turn
// waits on a journaled timer and tries the same round again, with capped
// exponential backoff and jitter, honouring the server's Retry-After, until
// Horizon has passed since the run's first failure. The zero value disables
// it: the turn fails at once, as `once` wants.
type ModelRetry struct {
	// Horizon bounds a retry run, measured from its first failure; 0
	// disables durable retry.
	Horizon time.Duration
	// BaseDelay is the backoff of the first retry; each further retry
	// doubles it, up to MaxDelay.
	BaseDelay time.Duration
	// MaxDelay caps the backoff (a longer Retry-After still wins).
	MaxDelay time.Duration
	// Jitter returns a value in [0, 1) that spreads each delay over its
	// upper half; nil means math/rand/v2. Tests inject a fixed source.
	Jitter func() float64
}

// DefaultModelRetry is the retry `run` uses unless told otherwise: retries
// from 30 s, doubling to 30 min, for up to 6 h.
func DefaultModelRetry() ModelRetry {
	return ModelRetry{Horizon: 6 * time.Hour, BaseDelay: 30 * time.Second, MaxDelay: 30 * time.Minute}
}

// ErrInvalidModelRetry is wrapped by ModelRetry.Validate.
var ErrInvalidModelRetry = errors.New("invalid model retry")

// Validate checks an enabled retry's delays: positive, base not above max.
func (r ModelRetry) Validate() error {
	switch {
	case r.Horizon < 0:
		return fmt.Errorf("%w: horizon %v is negative: give a duration, or 0 to fail turns at once", ErrInvalidModelRetry, r.Horizon)
	case r.Horizon == 0:
		return nil
	case r.BaseDelay <= 0:
		return fmt.Errorf("%w: base delay %v: give a positive duration", ErrInvalidModelRetry, r.BaseDelay)
	case r.MaxDelay < r.BaseDelay:
		return fmt.Errorf("%w: max delay %v is below the base delay %v", ErrInvalidModelRetry, r.MaxDelay, r.BaseDelay)
	}
	return nil
}

// retryEnv is everything a retry decision reads besides the agent's
// state: the time and the jitter source.
type retryEnv struct {
	Now    time.Time
	Jitter func() float64 // in [0, 1)
}

// modelFailure is what a retry decision needs to know of a failed round.
type modelFailure struct {
	Kind       providers.ErrorKind
	RetryAfter time.Duration // the server's hint, 0 when absent
}

// modelFailureOf classifies a provider error for the decision.
func modelFailureOf(err error) modelFailure {
	f := modelFailure{Kind: providers.KindOf(err)}
	var pe *providers.Error
	if errors.As(err, &pe) {
		f.RetryAfter = pe.RetryAfter
	}
	return f
}

// retryVerdict says why a failure is retried or not.
type retryVerdict string

// The retry verdicts.
const (
	retryScheduled    retryVerdict = "scheduled"     // try again at DueAt
	retryDisabled     retryVerdict = "disabled"      // no horizon configured
	retryNotRetryable retryVerdict = "not_retryable" // the failure's kind is final
	retryExhausted    retryVerdict = "exhausted"     // the horizon is reached
)

// retryDecision is the outcome of decideModelRetry.
type retryDecision struct {
	Verdict retryVerdict
	// Attempt is the number of failed rounds in this run, this one
	// included; FirstFailedAt is when the run began.
	Attempt       int
	FirstFailedAt time.Time
	// DueAt is when to try again (Verdict scheduled only).
	DueAt time.Time
}

// durablyRetryable reports the failure kinds worth waiting out: the
// chain's retryable kinds and an open breaker, which those opened.
func durablyRetryable(k providers.ErrorKind) bool {
	return k.Retryable() || k == providers.KindCircuitOpen
}

// decideModelRetry decides what a turn does after a failed model round,
// from the policy, the turn's retry run so far (nil before its first
// failure) and the failure, at env.Now. It is a pure function.
//
// The n-th retry waits d = min(BaseDelay·2ⁿ⁻¹, MaxDelay), jittered into
// [d/2, d); a longer Retry-After wins. A run ends at FirstFailedAt +
// Horizon: a retry due later is moved to that instant (the last attempt),
// unless the server asked to wait beyond it, and a failure at or after it
// is final.
func decideModelRetry(p ModelRetry, prev *agentstate.ModelRetryState, f modelFailure, env retryEnv) retryDecision {
	d := retryDecision{Attempt: 1, FirstFailedAt: env.Now}
	if prev != nil {
		d.Attempt, d.FirstFailedAt = prev.Attempt+1, prev.FirstFailedAt
	}
	switch {
	case p.Horizon <= 0:
		d.Verdict = retryDisabled
		return d
	case !durablyRetryable(f.Kind):
		d.Verdict = retryNotRetryable
		return d
	}
	end := d.FirstFailedAt.Add(p.Horizon)
	if !env.Now.Before(end) || (f.RetryAfter > 0 && env.Now.Add(f.RetryAfter).After(end)) {
		d.Verdict = retryExhausted
		return d
	}
	d.Verdict, d.DueAt = retryScheduled, env.Now.Add(max(backoff(p, d.Attempt, env.Jitter), f.RetryAfter))
	if d.DueAt.After(end) {
		d.DueAt = end
	}
	return d
}

// backoff is the jittered delay before retry n (1 for the first).
func backoff(p ModelRetry, n int, jitter func() float64) time.Duration {
	d := p.BaseDelay
	for i := 1; i < n && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	if jitter == nil {
		jitter = rand.Float64
	}
	half := d / 2
	return d - half + time.Duration(jitter()*float64(half))
}
