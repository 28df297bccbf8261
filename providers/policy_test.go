package providers_test

import (
	"errors"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/providers"
)

func TestBackoff(t *testing.T) {
	p := providers.DefaultRetryPolicy()
	tests := []struct {
		name       string
		retry      int
		retryAfter time.Duration
		rnd        float64
		want       time.Duration
	}{
		{"first retry, lowest jitter", 1, 0, 0, 400 * time.Millisecond},
		{"first retry, mid jitter", 1, 0, 0.5, 450 * time.Millisecond},
		{"second retry doubles", 2, 0, 0.5, 900 * time.Millisecond},
		{"capped at MaxDelay", 10, 0, 0.999999, 8 * time.Second},
		{"retry-after wins", 1, 2 * time.Second, 0.5, 2 * time.Second},
		{"retry-after capped", 1, time.Hour, 0.5, 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := p.Backoff(tt.retry, tt.retryAfter, func() float64 { return tt.rnd })
			if d := got - tt.want; d < -time.Millisecond || d > time.Millisecond {
				t.Errorf("Backoff(%d, %v) = %v, want %v", tt.retry, tt.retryAfter, got, tt.want)
			}
		})
	}
}

func TestRetryPolicyValidate(t *testing.T) {
	if err := providers.DefaultRetryPolicy().Validate(); err != nil {
		t.Fatalf("default policy: %v", err)
	}
	if got := providers.DefaultRetryPolicy().MaxAttempts(); got != 3 {
		t.Errorf("MaxAttempts() = %d, want 3 (2 retries)", got)
	}
	mutations := map[string]func(*providers.RetryPolicy){
		"negative retries":    func(p *providers.RetryPolicy) { p.MaxRetries = -1 },
		"max below base":      func(p *providers.RetryPolicy) { p.MaxDelay = p.BaseDelay / 2 },
		"jitter above one":    func(p *providers.RetryPolicy) { p.Jitter = 1.5 },
		"negative cap":        func(p *providers.RetryPolicy) { p.RetryAfterCap = -time.Second },
		"negative base delay": func(p *providers.RetryPolicy) { p.BaseDelay = -time.Second },
	}
	for name, mutate := range mutations {
		p := providers.DefaultRetryPolicy()
		mutate(&p)
		if err := p.Validate(); !errors.Is(err, providers.ErrInvalidPolicy) {
			t.Errorf("%s: Validate() = %v, want ErrInvalidPolicy", name, err)
		}
	}
}

func TestKindPolicy(t *testing.T) {
	tests := []struct {
		kind      providers.ErrorKind
		retryable bool
		fallback  bool
	}{
		{providers.KindTimeout, true, true},
		{providers.KindConnection, true, true},
		{providers.KindRateLimited, true, true},
		{providers.KindServer, true, true},
		{providers.KindAuth, false, true},
		{providers.KindBadRequest, false, true},
		{providers.KindProtocol, false, true},
		{providers.KindUnsupported, false, true},
		{providers.KindQuotaExhausted, false, true},
		{providers.KindCircuitOpen, false, true},
		{providers.KindContextLength, false, false},
		{providers.KindCanceled, false, false},
	}
	for _, tt := range tests {
		if got := tt.kind.Retryable(); got != tt.retryable {
			t.Errorf("%s.Retryable() = %v, want %v", tt.kind, got, tt.retryable)
		}
		if got := tt.kind.Fallback(); got != tt.fallback {
			t.Errorf("%s.Fallback() = %v, want %v", tt.kind, got, tt.fallback)
		}
	}
}
