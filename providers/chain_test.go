package providers_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// scripted is a Provider answering from a list of steps; the last step
// repeats.
type scripted struct {
	name  string
	mu    sync.Mutex
	steps []step
	calls int
}

type step struct {
	resp providers.Response
	err  error
}

func ok(text string) step {
	return step{resp: providers.Response{Text: text, StopReason: providers.StopEndTurn,
		Usage: messages.TokenUsage{InputTokens: 10, OutputTokens: 2, TotalTokens: 12}}}
}

func fail(kind providers.ErrorKind, status int) step {
	return step{err: &providers.Error{Provider: "x", Kind: kind, Status: status, Message: "scripted"}}
}

func (s *scripted) Name() string { return s.name }

func (s *scripted) Complete(ctx context.Context, _ providers.Request) (providers.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.steps[min(s.calls, len(s.steps)-1)]
	s.calls++
	return st.resp, st.err
}

func (s *scripted) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

func noJitter() providers.RetryPolicy {
	p := providers.DefaultRetryPolicy()
	p.Jitter = 0
	p.AttemptTimeout = 0 // complete() advances the clock whenever a timer waits
	return p
}

// complete runs ch.Complete, advancing the fake clock whenever the chain
// waits on it, until the call returns.
func complete(t *testing.T, ctx context.Context, ch *providers.Chain, clock *clockwork.FakeClock) (providers.Response, error) {
	t.Helper()
	type result struct {
		resp providers.Response
		err  error
	}
	done := make(chan result, 1)
	waitCtx, cancel := context.WithCancel(context.Background())
	go func() {
		resp, err := ch.Complete(ctx, providers.Request{})
		done <- result{resp, err}
		cancel()
	}()
	for clock.BlockUntilContext(waitCtx, 1) == nil {
		clock.Advance(time.Minute)
	}
	r := <-done
	return r.resp, r.err
}

func newChain(t *testing.T, clock clockwork.Clock, cands ...providers.Candidate) *providers.Chain {
	t.Helper()
	ch, err := providers.NewChain(noJitter(), cands, providers.WithClock(clock))
	if err != nil {
		t.Fatalf("NewChain: %v", err)
	}
	return ch
}

type wantRec struct {
	ref      string
	kind     providers.ErrorKind
	outcome  providers.ProviderAttemptOutcome
	fallback bool
	backoff  int64 // -1: none
}

func checkTimeline(t *testing.T, tl providers.ProviderAttemptTimeline, want []wantRec) {
	t.Helper()
	if len(tl.Attempts) != len(want) {
		b, _ := json.MarshalIndent(tl, "", "  ")
		t.Fatalf("timeline has %d attempts, want %d:\n%s", len(tl.Attempts), len(want), b)
	}
	for i, w := range want {
		r := tl.Attempts[i]
		var backoff int64 = -1
		if r.BackoffMS != nil {
			backoff = *r.BackoffMS
		}
		if r.ModelRef != w.ref || r.FailureKind != string(w.kind) || r.Outcome != w.outcome ||
			r.AdvancedToFallback != w.fallback || backoff != w.backoff {
			t.Errorf("attempt %d = {%s %s %s fallback=%v backoff=%d}, want {%s %s %s fallback=%v backoff=%d}", i,
				r.ModelRef, r.FailureKind, r.Outcome, r.AdvancedToFallback, backoff,
				w.ref, w.kind, w.outcome, w.fallback, w.backoff)
		}
		if r.MaxAttempts != 3 {
			t.Errorf("attempt %d max_attempts = %d, want 3", i, r.MaxAttempts)
		}
	}
}

func TestChainPolicy(t *testing.T) {
	const a, b = "openai/gpt-5", "anthropic/claude-sonnet-4-5"
	tests := []struct {
		name     string
		a, b     []step
		wantErr  providers.ErrorKind // "" for success
		wantWin  string
		wantRecs []wantRec
		wantB    int
	}{
		{
			name: "first attempt succeeds", a: []step{ok("hi")}, b: []step{ok("b")}, wantWin: a,
			wantRecs: []wantRec{{a, "", providers.OutcomeSucceeded, false, -1}},
		},
		{
			name: "two retries then success", a: []step{fail(providers.KindServer, 500), fail(providers.KindTimeout, 0), ok("hi")},
			b: []step{ok("b")}, wantWin: a,
			wantRecs: []wantRec{
				{a, providers.KindServer, providers.OutcomeRetrying, false, 500},
				{a, providers.KindTimeout, providers.OutcomeRetrying, false, 1000},
				{a, "", providers.OutcomeSucceeded, false, -1},
			},
		},
		{
			name: "retries exhausted then fallback", a: []step{fail(providers.KindServer, 529)}, b: []step{ok("b")}, wantWin: b, wantB: 1,
			wantRecs: []wantRec{
				{a, providers.KindServer, providers.OutcomeRetrying, false, 500},
				{a, providers.KindServer, providers.OutcomeRetrying, false, 1000},
				{a, providers.KindServer, providers.OutcomeRetriesExhausted, true, -1},
				{b, "", providers.OutcomeSucceeded, false, -1},
			},
		},
		{
			name: "auth fails fast then fallback", a: []step{fail(providers.KindAuth, 401)}, b: []step{ok("b")}, wantWin: b, wantB: 1,
			wantRecs: []wantRec{
				{a, providers.KindAuth, providers.OutcomeFailFastAborted, true, -1},
				{b, "", providers.OutcomeSucceeded, false, -1},
			},
		},
		{
			name: "exhausted quota is not retried", a: []step{fail(providers.KindQuotaExhausted, 429)}, b: []step{ok("b")}, wantWin: b, wantB: 1,
			wantRecs: []wantRec{
				{a, providers.KindQuotaExhausted, providers.OutcomeFailFastAborted, true, -1},
				{b, "", providers.OutcomeSucceeded, false, -1},
			},
		},
		{
			name: "invalid response fails fast then fallback", a: []step{fail(providers.KindProtocol, 200)}, b: []step{ok("b")}, wantWin: b, wantB: 1,
			wantRecs: []wantRec{
				{a, providers.KindProtocol, providers.OutcomeFailFastAborted, true, -1},
				{b, "", providers.OutcomeSucceeded, false, -1},
			},
		},
		{
			name: "context length is turn-terminal", a: []step{fail(providers.KindContextLength, 400)}, b: []step{ok("b")},
			wantErr: providers.KindContextLength,
			wantRecs: []wantRec{
				{a, providers.KindContextLength, providers.OutcomeFailFastAborted, false, -1},
			},
		},
		{
			name: "every candidate fails", a: []step{fail(providers.KindBadRequest, 400)}, b: []step{fail(providers.KindConnection, 0)},
			wantErr: providers.KindConnection, wantB: 3,
			wantRecs: []wantRec{
				{a, providers.KindBadRequest, providers.OutcomeFailFastAborted, true, -1},
				{b, providers.KindConnection, providers.OutcomeRetrying, false, 500},
				{b, providers.KindConnection, providers.OutcomeRetrying, false, 1000},
				{b, providers.KindConnection, providers.OutcomeRetriesExhausted, false, -1},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clockwork.NewFakeClock()
			pa, pb := &scripted{name: a, steps: tt.a}, &scripted{name: b, steps: tt.b}
			ch := newChain(t, clock, providers.Candidate{Provider: pa}, providers.Candidate{ModelRef: b, Provider: pb})
			resp, err := complete(t, context.Background(), ch, clock)
			var tl providers.ProviderAttemptTimeline
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Complete: %v", err)
				}
				tl = *resp.Timeline
				if tl.WinningModelRef != tt.wantWin {
					t.Errorf("winning_model_ref = %q, want %q", tl.WinningModelRef, tt.wantWin)
				}
			} else {
				if got := providers.KindOf(err); got != tt.wantErr {
					t.Fatalf("KindOf(%v) = %s, want %s", err, got, tt.wantErr)
				}
				var ok bool
				if tl, ok = providers.TimelineOf(err); !ok {
					t.Fatalf("error %v carries no timeline", err)
				}
				if tl.WinningModelRef != "" {
					t.Errorf("failed round has winning_model_ref %q", tl.WinningModelRef)
				}
			}
			if tl.RequestedModelRef != a {
				t.Errorf("requested_model_ref = %q, want %q", tl.RequestedModelRef, a)
			}
			checkTimeline(t, tl, tt.wantRecs)
			if pb.Calls() != tt.wantB {
				t.Errorf("candidate B called %d times, want %d", pb.Calls(), tt.wantB)
			}
		})
	}
}

func TestChainRetryAfter(t *testing.T) {
	tests := []struct {
		name       string
		retryAfter time.Duration
		want       int64
	}{
		{"honoured", 3 * time.Second, 3000},
		{"capped", 10 * time.Minute, 30000},
		{"absent", 0, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := clockwork.NewFakeClock()
			limited := step{err: &providers.Error{Provider: "a/m", Kind: providers.KindRateLimited, Status: 429, RetryAfter: tt.retryAfter}}
			p := &scripted{name: "a/m", steps: []step{limited, ok("done")}}
			resp, err := complete(t, context.Background(), newChain(t, clock, providers.Candidate{Provider: p}), clock)
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if got := *resp.Timeline.Attempts[0].BackoffMS; got != tt.want {
				t.Errorf("backoff_ms = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestChainUsageAndTimes(t *testing.T) {
	clock := clockwork.NewFakeClockAt(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	withUsage := fail(providers.KindServer, 500)
	p := &scripted{name: "a/m", steps: []step{withUsage, ok("x")}}
	resp, err := complete(t, context.Background(), newChain(t, clock, providers.Candidate{Provider: p}), clock)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	tl := resp.Timeline
	if tl.AggregatedTokenUsage == nil || tl.AggregatedTokenUsage.TotalTokens != 12 {
		t.Errorf("aggregated usage = %+v, want total 12", tl.AggregatedTokenUsage)
	}
	first, second := tl.Attempts[0], tl.Attempts[1]
	if first.TokenUsage != nil || second.TokenUsage == nil {
		t.Errorf("token_usage per attempt = %v, %v; want only on the success", first.TokenUsage, second.TokenUsage)
	}
	if first.StartedAt == nil || *first.DurationMS != 0 || !second.StartedAt.Equal(first.StartedAt.Add(time.Minute)) {
		t.Errorf("attempt times %v, %v: want the second one backoff later", first.StartedAt, second.StartedAt)
	}
}

func TestChainCancelDuringBackoff(t *testing.T) {
	clock := clockwork.NewFakeClock()
	pa := &scripted{name: "a/m", steps: []step{fail(providers.KindServer, 503)}}
	pb := &scripted{name: "b/m", steps: []step{ok("b")}}
	ch := newChain(t, clock, providers.Candidate{Provider: pa}, providers.Candidate{Provider: pb})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := ch.Complete(ctx, providers.Request{})
		done <- err
	}()
	if err := clock.BlockUntilContext(ctx, 1); err != nil { // the chain waits out its first backoff
		t.Fatal(err)
	}
	cancel()
	err := <-done
	if providers.KindOf(err) != providers.KindCanceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("Complete = %v, want a canceled provider error", err)
	}
	if pb.Calls() != 0 {
		t.Errorf("fallback ran after cancellation")
	}
}

func TestChainCircuitBreaker(t *testing.T) {
	clock := clockwork.NewFakeClock()
	breaker := providers.NewBreaker(providers.BreakerConfig{Threshold: 3, Cooldown: 30 * time.Second}, clock)
	pa := &scripted{name: "a/m", steps: []step{fail(providers.KindServer, 500)}}
	pb := &scripted{name: "b/m", steps: []step{ok("b")}}
	ch := newChain(t, clock, providers.Candidate{Provider: pa, Breaker: breaker}, providers.Candidate{Provider: pb})

	// The first round makes 3 attempts on A, which opens its breaker.
	if _, err := complete(t, context.Background(), ch, clock); err != nil {
		t.Fatalf("round 1: %v", err)
	}
	if breaker.State() != providers.BreakerOpen || pa.Calls() != 3 {
		t.Fatalf("after round 1: breaker %s, A calls %d; want open, 3", breaker.State(), pa.Calls())
	}
	// While open, A is skipped without a call and B answers.
	resp, err := complete(t, context.Background(), ch, clock)
	if err != nil {
		t.Fatalf("round 2: %v", err)
	}
	checkTimeline(t, *resp.Timeline, []wantRec{
		{"a/m", providers.KindCircuitOpen, providers.OutcomeFailFastAborted, true, -1},
		{"b/m", "", providers.OutcomeSucceeded, false, -1},
	})
	if pa.Calls() != 3 {
		t.Errorf("A called while its breaker was open")
	}
	// After the cooldown one probe reaches A; it succeeds and closes the breaker.
	pa.mu.Lock()
	pa.steps = []step{ok("a is back")}
	pa.mu.Unlock()
	clock.Advance(30 * time.Second)
	resp, err = complete(t, context.Background(), ch, clock)
	if err != nil || resp.Text != "a is back" {
		t.Fatalf("round 3 = %q, %v; want A's answer", resp.Text, err)
	}
	if breaker.State() != providers.BreakerClosed {
		t.Errorf("breaker %s after a successful probe, want closed", breaker.State())
	}
}

func TestNewChainRejects(t *testing.T) {
	if _, err := providers.NewChain(providers.DefaultRetryPolicy(), nil); providers.KindOf(err) != providers.KindNotConfigured {
		t.Errorf("NewChain(no candidates) = %v, want not_configured", err)
	}
	bad := providers.DefaultRetryPolicy()
	bad.MaxRetries = -1
	if _, err := providers.NewChain(bad, []providers.Candidate{{Provider: &scripted{name: "a/m"}}}); !errors.Is(err, providers.ErrInvalidPolicy) {
		t.Errorf("NewChain(bad policy) = %v, want ErrInvalidPolicy", err)
	}
}
