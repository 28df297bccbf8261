package providers_test

import (
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/providers"
)

func TestBreakerLifecycle(t *testing.T) {
	clock := clockwork.NewFakeClock()
	b := providers.NewBreaker(providers.BreakerConfig{Threshold: 2, Cooldown: 10 * time.Second}, clock)
	steps := []struct {
		name      string
		do        func()
		wantAllow bool
		wantState providers.BreakerState
	}{
		{"closed allows", func() {}, true, providers.BreakerClosed},
		{"one failure stays closed", b.Failure, true, providers.BreakerClosed},
		{"success resets the count", b.Success, true, providers.BreakerClosed},
		{"first failure again", b.Failure, true, providers.BreakerClosed},
		{"second consecutive failure opens", b.Failure, false, providers.BreakerOpen},
		{"still open before the cooldown", func() { clock.Advance(9 * time.Second) }, false, providers.BreakerOpen},
		{"cooldown passed: one probe", func() { clock.Advance(time.Second) }, true, providers.BreakerHalfOpen},
		{"only one probe at a time", func() {}, false, providers.BreakerHalfOpen},
		{"failed probe reopens", b.Failure, false, providers.BreakerOpen},
		{"probe again after the cooldown", func() { clock.Advance(10 * time.Second) }, true, providers.BreakerHalfOpen},
		{"released probe frees the slot", b.Release, true, providers.BreakerHalfOpen},
		{"successful probe closes", b.Success, true, providers.BreakerClosed},
	}
	for _, s := range steps {
		s.do()
		if got := b.Allow(); got != s.wantAllow {
			t.Fatalf("%s: Allow() = %v, want %v", s.name, got, s.wantAllow)
		}
		if got := b.State(); got != s.wantState {
			t.Fatalf("%s: State() = %s, want %s", s.name, got, s.wantState)
		}
	}
}

func TestBreakerDisabledAndNil(t *testing.T) {
	var nilBreaker *providers.Breaker
	off := providers.NewBreaker(providers.BreakerConfig{}, clockwork.NewFakeClock())
	for i := 0; i < 10; i++ {
		nilBreaker.Failure()
		off.Failure()
	}
	if !nilBreaker.Allow() || !off.Allow() {
		t.Error("a nil or disabled breaker refused a call")
	}
}
