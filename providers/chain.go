package providers

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/messages"
)

// Candidate is one configured provider candidate: a transport plus the
// breaker shared by every caller of that provider.
type Candidate struct {
	// ModelRef names the candidate, e.g. "openai/gpt-5"; "" uses
	// Provider.Name().
	ModelRef string
	Provider Provider
	// Breaker may be nil (no circuit breaking). Share one Breaker per
	// provider across chains.
	Breaker *Breaker
}

func (c Candidate) ref() string {
	if c.ModelRef != "" {
		return c.ModelRef
	}
	return c.Provider.Name()
}

// Chain runs one provider round over its candidates in order: retries on
// the same candidate per Policy, then fallback to the next one, with each
// candidate's breaker consulted first. It implements Provider; its
// Response carries the attempt timeline and its failures are *ChainError.
// A Chain is immutable and safe for concurrent use.
type Chain struct {
	candidates []Candidate
	policy     RetryPolicy
	clock      clockwork.Clock
	rnd        func() float64
}

// ChainOption configures NewChain.
type ChainOption func(*Chain)

// WithClock sets the clock used for timestamps, durations and backoff.
func WithClock(c clockwork.Clock) ChainOption { return func(ch *Chain) { ch.clock = c } }

// WithRand sets the jitter source; rnd returns values in [0, 1).
func WithRand(rnd func() float64) ChainOption { return func(ch *Chain) { ch.rnd = rnd } }

// NewChain returns a chain over candidates, tried in order.
func NewChain(policy RetryPolicy, candidates []Candidate, opts ...ChainOption) (*Chain, error) {
	if err := policy.Validate(); err != nil {
		return nil, fmt.Errorf("new provider chain: %w", err)
	}
	if len(candidates) == 0 {
		return nil, fmt.Errorf("new provider chain: %w", &Error{Provider: "chain", Kind: KindNotConfigured, Message: "no provider candidates"})
	}
	for i, c := range candidates {
		if c.Provider == nil {
			return nil, fmt.Errorf("new provider chain: candidate %d has no provider: %w", i, ErrProvider)
		}
	}
	ch := &Chain{candidates: append([]Candidate(nil), candidates...), policy: policy,
		clock: clockwork.NewRealClock(), rnd: rand.Float64}
	for _, o := range opts {
		o(ch)
	}
	return ch, nil
}

// Name is the requested model ref: the first candidate's.
func (c *Chain) Name() string { return c.candidates[0].ref() }

// Policy returns the chain's retry policy.
func (c *Chain) Policy() RetryPolicy { return c.policy }

// ChainError is a failed provider round: the last attempt's failure plus
// the whole attempt timeline. errors.As finds the *Error of the last
// attempt, so KindOf reports its kind.
type ChainError struct {
	Timeline ProviderAttemptTimeline
	Last     error
}

func (e *ChainError) Error() string {
	n := len(e.Timeline.Attempts)
	return fmt.Sprintf("provider round for %s failed after %d attempt(s): %v", e.Timeline.RequestedModelRef, n, e.Last)
}

func (e *ChainError) Unwrap() error { return e.Last }

// TimelineOf returns the attempt timeline carried by err, if any.
func TimelineOf(err error) (ProviderAttemptTimeline, bool) {
	var ce *ChainError
	if errors.As(err, &ce) {
		return ce.Timeline, true
	}
	return ProviderAttemptTimeline{}, false
}

// Complete runs req through the candidates. On success the Response's
// Timeline lists every attempt, the winning one last.
func (c *Chain) Complete(ctx context.Context, req Request) (Response, error) {
	tl := ProviderAttemptTimeline{RequestedModelRef: c.Name()}
	var last error
	for i, cand := range c.candidates {
		tl.ActiveModelRef = cand.ref()
		resp, err, next := c.runCandidate(ctx, cand, req, &tl)
		if err == nil {
			tl.WinningModelRef = cand.ref()
			resp.Timeline = &tl
			return resp, nil
		}
		last = err
		if !next || i == len(c.candidates)-1 {
			break
		}
		tl.last().AdvancedToFallback = true
	}
	return Response{}, &ChainError{Timeline: tl, Last: last}
}

// runCandidate makes up to MaxAttempts attempts on one candidate. next
// reports whether a failure may fall back to the next candidate.
func (c *Chain) runCandidate(ctx context.Context, cand Candidate, req Request, tl *ProviderAttemptTimeline) (Response, error, bool) {
	maxAttempts := c.policy.MaxAttempts()
	for attempt := 1; ; attempt++ {
		if !cand.Breaker.Allow() {
			err := &Error{Provider: cand.ref(), Kind: KindCircuitOpen, Message: "circuit breaker open",
				Diagnostics: &TransportDiagnostics{Stage: StageCandidate, Provider: cand.ref(), ModelRef: cand.ref()}}
			tl.add(c.record(cand, attempt, maxAttempts, time.Time{}, err, OutcomeFailFastAborted))
			return Response{}, err, true
		}
		start := c.clock.Now()
		actx, done := c.attemptContext(ctx)
		resp, err := cand.Provider.Complete(actx, req)
		if err != nil {
			err = c.classify(actx, cand, err)
		}
		done()
		if err == nil {
			cand.Breaker.Success()
			rec := c.record(cand, attempt, maxAttempts, start, nil, OutcomeSucceeded)
			rec.TokenUsage = usagePtr(resp)
			tl.add(rec)
			return resp, nil, false
		}
		kind := KindOf(err)
		c.account(cand.Breaker, kind)
		if !kind.Retryable() || attempt >= maxAttempts || ctx.Err() != nil {
			outcome := OutcomeFailFastAborted
			if kind.Retryable() {
				outcome = OutcomeRetriesExhausted
			}
			tl.add(c.record(cand, attempt, maxAttempts, start, err, outcome))
			zerolog.Ctx(ctx).Info().Str("provider", cand.ref()).Int("attempt", attempt).Str("failure_kind", string(kind)).
				Str("outcome", string(outcome)).Msg("provider candidate failed")
			return Response{}, err, kind.Fallback() && ctx.Err() == nil
		}
		rec := c.record(cand, attempt, maxAttempts, start, err, OutcomeRetrying)
		wait := c.policy.Backoff(attempt, retryAfterOf(err), c.rnd)
		ms := wait.Milliseconds()
		rec.BackoffMS = &ms
		tl.add(rec)
		zerolog.Ctx(ctx).Debug().Str("provider", cand.ref()).Int("attempt", attempt).Str("failure_kind", string(kind)).
			Int64("backoff_ms", ms).Msg("provider attempt failed, retrying")
		if werr := c.sleep(ctx, wait); werr != nil {
			tl.last().Outcome = OutcomeFailFastAborted
			return Response{}, CtxError(ctx, cand.ref(), StageRequest, werr), false
		}
	}
}

// errAttemptTimeout is the cancellation cause of an attempt that ran past
// the policy's AttemptTimeout.
var errAttemptTimeout = fmt.Errorf("provider attempt timed out: %w", context.DeadlineExceeded)

// attemptContext bounds one attempt by the policy's AttemptTimeout on the
// chain's clock; done releases it.
func (c *Chain) attemptContext(ctx context.Context) (context.Context, func()) {
	if c.policy.AttemptTimeout <= 0 {
		return ctx, func() {}
	}
	actx, cancel := context.WithCancelCause(ctx)
	t := c.clock.AfterFunc(c.policy.AttemptTimeout, func() { cancel(errAttemptTimeout) })
	return actx, func() {
		t.Stop()
		cancel(nil)
	}
}

// classify makes sure err is an *Error: a bare context error becomes
// timeout or canceled, anything else unknown.
func (c *Chain) classify(ctx context.Context, cand Candidate, err error) error {
	var pe *Error
	if errors.As(err, &pe) {
		return err
	}
	if ce := CtxError(ctx, cand.ref(), StageRequest, err); ce != nil {
		return ce
	}
	return &Error{Provider: cand.ref(), Kind: KindProviderUnknown, Message: err.Error(), Err: err}
}

// account tells the breaker how the call went.
func (c *Chain) account(b *Breaker, k ErrorKind) {
	if countsAgainst(k) {
		b.Failure()
		return
	}
	b.Release()
}

func (c *Chain) sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := c.clock.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.Chan():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// record builds the attempt record; a zero start means no call was made.
func (c *Chain) record(cand Candidate, attempt, maxAttempts int, start time.Time, err error, outcome ProviderAttemptOutcome) ProviderAttemptRecord {
	r := ProviderAttemptRecord{Provider: providerOf(cand.ref()), ModelRef: cand.ref(), Attempt: attempt,
		MaxAttempts: maxAttempts, Outcome: outcome}
	if !start.IsZero() {
		end := c.clock.Now()
		s, e := start.UTC(), end.UTC()
		ms := end.Sub(start).Milliseconds()
		r.StartedAt, r.CompletedAt, r.DurationMS = &s, &e, &ms
	}
	var pe *Error
	if errors.As(err, &pe) {
		r.FailureKind = string(pe.Kind)
		r.Disposition = pe.Kind.Disposition()
		r.TransportDiagnostics = pe.Diagnostics
	}
	return r
}

func retryAfterOf(err error) time.Duration {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.RetryAfter
	}
	return 0
}

// usagePtr returns the response's usage, nil when it reported none.
func usagePtr(resp Response) *messages.TokenUsage {
	if resp.Usage == (messages.TokenUsage{}) {
		return nil
	}
	u := resp.Usage
	return &u
}
