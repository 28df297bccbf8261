package providers

import (
	"errors"
	"fmt"
	"time"
)

// RetryPolicy is the runtime-owned retry policy of one provider candidate:
// the spec's phase-1 policy with capped exponential backoff and jitter.
// Transports never retry on their own; only this policy retries.
type RetryPolicy struct {
	// MaxRetries is how many times one request is retried on the same
	// candidate after its first attempt (phase 1: 2).
	MaxRetries int `json:"max_retries"`
	// BaseDelay is the wait before the first retry; each retry doubles it.
	BaseDelay time.Duration `json:"base_delay"`
	// MaxDelay caps the exponential delay.
	MaxDelay time.Duration `json:"max_delay"`
	// Jitter is the fraction of the delay drawn at random, in [0, 1]:
	// the wait is delay*(1-Jitter) + rand*delay*Jitter.
	Jitter float64 `json:"jitter"`
	// RetryAfterCap caps an honoured Retry-After; a longer hint waits
	// RetryAfterCap.
	RetryAfterCap time.Duration `json:"retry_after_cap"`
	// AttemptTimeout bounds one attempt, measured on the chain's clock;
	// an attempt that runs longer fails as a retryable timeout. 0 means
	// no bound beyond the caller's context.
	AttemptTimeout time.Duration `json:"attempt_timeout"`
}

// DefaultRetryPolicy returns the phase-1 policy: 2 retries, 500ms doubling
// to at most 8s with 20% jitter, Retry-After honoured up to 30s, and 10
// minutes at most per attempt.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: 2, BaseDelay: 500 * time.Millisecond, MaxDelay: 8 * time.Second,
		Jitter: 0.2, RetryAfterCap: 30 * time.Second, AttemptTimeout: 10 * time.Minute}
}

// ErrInvalidPolicy is wrapped by Validate errors.
var ErrInvalidPolicy = errors.New("providers: invalid retry policy")

// Validate reports a policy that cannot run.
func (p RetryPolicy) Validate() error {
	switch {
	case p.MaxRetries < 0:
		return fmt.Errorf("max retries %d is negative: %w", p.MaxRetries, ErrInvalidPolicy)
	case p.BaseDelay < 0 || p.MaxDelay < p.BaseDelay:
		return fmt.Errorf("delays base %v max %v: %w", p.BaseDelay, p.MaxDelay, ErrInvalidPolicy)
	case p.Jitter < 0 || p.Jitter > 1:
		return fmt.Errorf("jitter %v outside [0, 1]: %w", p.Jitter, ErrInvalidPolicy)
	case p.RetryAfterCap < 0:
		return fmt.Errorf("retry-after cap %v is negative: %w", p.RetryAfterCap, ErrInvalidPolicy)
	case p.AttemptTimeout < 0:
		return fmt.Errorf("attempt timeout %v is negative: %w", p.AttemptTimeout, ErrInvalidPolicy)
	}
	return nil
}

// MaxAttempts is the number of attempts one candidate gets.
func (p RetryPolicy) MaxAttempts() int { return p.MaxRetries + 1 }

// Backoff returns the wait before retry number retry (1 for the first
// retry). A positive retryAfter replaces the computed delay, capped at
// RetryAfterCap. rnd returns a value in [0, 1).
func (p RetryPolicy) Backoff(retry int, retryAfter time.Duration, rnd func() float64) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, p.RetryAfterCap)
	}
	d := p.BaseDelay
	for i := 1; i < retry && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	spread := time.Duration(float64(d) * p.Jitter)
	return d - spread + time.Duration(rnd()*float64(spread))
}
