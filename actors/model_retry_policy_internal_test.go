package actors

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/providers"
)

func TestDecideModelRetry(t *testing.T) {
	policy := ModelRetry{Horizon: time.Hour, BaseDelay: 30 * time.Second, MaxDelay: 10 * time.Minute}
	t0 := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	limited := modelFailure{Kind: providers.KindRateLimited}
	run := func(attempt int, since time.Duration) *agentstate.ModelRetryState {
		return &agentstate.ModelRetryState{Attempt: attempt, FirstFailedAt: t0.Add(-since)}
	}
	tests := []struct {
		name        string
		policy      ModelRetry
		prev        *agentstate.ModelRetryState
		failure     modelFailure
		jitter      float64
		want        retryVerdict
		wantAttempt int
		wantDelay   time.Duration // from t0, when scheduled
	}{
		{"first 429, lowest jitter", policy, nil, limited, 0, retryScheduled, 1, 15 * time.Second},
		{"first 429, mid jitter", policy, nil, limited, 0.5, retryScheduled, 1, 22500 * time.Millisecond},
		{"third attempt doubles twice", policy, run(2, time.Minute), limited, 0, retryScheduled, 3, time.Minute},
		{"capped at MaxDelay", policy, run(9, 20*time.Minute), limited, 0, retryScheduled, 10, 5 * time.Minute},
		{"Retry-After longer than the backoff wins", policy, nil,
			modelFailure{Kind: providers.KindRateLimited, RetryAfter: 2 * time.Minute}, 0.9, retryScheduled, 1, 2 * time.Minute},
		{"Retry-After shorter than the backoff does not shorten it", policy, nil,
			modelFailure{Kind: providers.KindRateLimited, RetryAfter: time.Second}, 0, retryScheduled, 1, 15 * time.Second},
		{"overload (5xx)", policy, nil, modelFailure{Kind: providers.KindServer}, 0, retryScheduled, 1, 15 * time.Second},
		{"connection", policy, nil, modelFailure{Kind: providers.KindConnection}, 0, retryScheduled, 1, 15 * time.Second},
		{"timeout", policy, nil, modelFailure{Kind: providers.KindTimeout}, 0, retryScheduled, 1, 15 * time.Second},
		{"breaker opened by the burst", policy, nil, modelFailure{Kind: providers.KindCircuitOpen}, 0, retryScheduled, 1, 15 * time.Second},
		{"last retry moved to the horizon", policy, run(8, 58*time.Minute), limited, 0, retryScheduled, 9, 2 * time.Minute},
		{"horizon reached", policy, run(12, time.Hour), limited, 0, retryExhausted, 13, 0},
		{"Retry-After beyond the horizon", policy, run(3, 50*time.Minute),
			modelFailure{Kind: providers.KindRateLimited, RetryAfter: 11 * time.Minute}, 0, retryExhausted, 4, 0},
		{"auth is final", policy, nil, modelFailure{Kind: providers.KindAuth}, 0, retryNotRetryable, 1, 0},
		{"exhausted quota is final", policy, nil, modelFailure{Kind: providers.KindQuotaExhausted}, 0, retryNotRetryable, 1, 0},
		{"context length is final", policy, nil, modelFailure{Kind: providers.KindContextLength}, 0, retryNotRetryable, 1, 0},
		{"cancelled is final", policy, nil, modelFailure{Kind: providers.KindCanceled}, 0, retryNotRetryable, 1, 0},
		{"disabled", ModelRetry{}, nil, limited, 0, retryDisabled, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decideModelRetry(tt.policy, tt.prev, tt.failure, retryEnv{Now: t0, Jitter: func() float64 { return tt.jitter }})
			if got.Verdict != tt.want || got.Attempt != tt.wantAttempt {
				t.Fatalf("decideModelRetry = %s attempt %d, want %s attempt %d", got.Verdict, got.Attempt, tt.want, tt.wantAttempt)
			}
			wantFirst := t0
			if tt.prev != nil {
				wantFirst = tt.prev.FirstFailedAt
			}
			if !got.FirstFailedAt.Equal(wantFirst) {
				t.Errorf("FirstFailedAt = %v, want %v", got.FirstFailedAt, wantFirst)
			}
			if tt.want == retryScheduled && got.DueAt.Sub(t0) != tt.wantDelay {
				t.Errorf("DueAt = t0+%v, want t0+%v", got.DueAt.Sub(t0), tt.wantDelay)
			}
			if tt.want != retryScheduled && !got.DueAt.IsZero() {
				t.Errorf("DueAt = %v for verdict %s, want zero", got.DueAt, got.Verdict)
			}
		})
	}
}

func TestModelFailureOf(t *testing.T) {
	err := fmt.Errorf("round 2: %w", &providers.Error{Provider: "openai/gpt-5", Kind: providers.KindRateLimited, RetryAfter: 3 * time.Second})
	if got := modelFailureOf(err); got.Kind != providers.KindRateLimited || got.RetryAfter != 3*time.Second {
		t.Errorf("modelFailureOf(wrapped 429) = %+v, want rate_limited with Retry-After 3s", got)
	}
	if got := modelFailureOf(errors.New("boom")); got.Kind != providers.KindProviderUnknown || got.RetryAfter != 0 {
		t.Errorf("modelFailureOf(plain error) = %+v, want unknown", got)
	}
}

func TestModelRetryValidate(t *testing.T) {
	tests := []struct {
		name string
		r    ModelRetry
		ok   bool
	}{
		{"default", DefaultModelRetry(), true},
		{"disabled", ModelRetry{}, true},
		{"negative horizon", ModelRetry{Horizon: -time.Second}, false},
		{"no base delay", ModelRetry{Horizon: time.Hour, MaxDelay: time.Minute}, false},
		{"max below base", ModelRetry{Horizon: time.Hour, BaseDelay: time.Minute, MaxDelay: time.Second}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.r.Validate()
			if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrInvalidModelRetry)) {
				t.Errorf("Validate() = %v, want ok=%v", err, tt.ok)
			}
		})
	}
}
