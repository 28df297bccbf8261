package providers

import (
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// BreakerState is the state of a circuit breaker.
type BreakerState string

// The breaker states.
const (
	BreakerClosed   BreakerState = "closed"    // calls pass
	BreakerOpen     BreakerState = "open"      // calls are refused until the cooldown ends
	BreakerHalfOpen BreakerState = "half_open" // one probe call passes
)

// String returns the state as spelled in JSON.
func (s BreakerState) String() string { return string(s) }

// BreakerConfig configures a Breaker.
type BreakerConfig struct {
	// Threshold is how many consecutive failures open the breaker.
	Threshold int `json:"threshold"`
	// Cooldown is how long an open breaker refuses calls before it lets
	// one probe through.
	Cooldown time.Duration `json:"cooldown"`
}

// DefaultBreakerConfig opens after 5 consecutive failures and probes again
// after 30s.
func DefaultBreakerConfig() BreakerConfig {
	return BreakerConfig{Threshold: 5, Cooldown: 30 * time.Second}
}

// Breaker is a per-provider circuit breaker shared by every agent calling
// that provider, so one failing provider does not cause a retry storm. It
// is safe for concurrent use.
type Breaker struct {
	cfg   BreakerConfig
	clock clockwork.Clock

	mu       sync.Mutex
	state    BreakerState
	failures int       // consecutive failures while closed
	openedAt time.Time // when the breaker last opened
	probing  bool      // a half-open probe is in flight
}

// NewBreaker returns a closed breaker reading time from clock. A
// non-positive Threshold disables it: Allow always succeeds.
func NewBreaker(cfg BreakerConfig, clock clockwork.Clock) *Breaker {
	return &Breaker{cfg: cfg, clock: clock, state: BreakerClosed}
}

// Allow reports whether a call may start now. In half-open state only one
// probe is allowed until it reports Success or Failure.
func (b *Breaker) Allow() bool {
	if b == nil || b.cfg.Threshold <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case BreakerOpen:
		if b.clock.Since(b.openedAt) < b.cfg.Cooldown {
			return false
		}
		b.state, b.probing = BreakerHalfOpen, true
		return true
	case BreakerHalfOpen:
		if b.probing {
			return false
		}
		b.probing = true
	}
	return true
}

// Success records a successful call: the breaker closes.
func (b *Breaker) Success() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.state, b.failures, b.probing = BreakerClosed, 0, false
}

// Failure records a failed call. A failed probe reopens the breaker; the
// Threshold-th consecutive failure opens it.
func (b *Breaker) Failure() {
	if b == nil || b.cfg.Threshold <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures++
	if b.state == BreakerHalfOpen || b.failures >= b.cfg.Threshold {
		b.state, b.openedAt, b.probing = BreakerOpen, b.clock.Now(), false
	}
}

// Release ends a call that neither succeeded nor failed on the provider's
// account (a cancelled call, a bad request): a half-open probe slot is
// freed without changing state.
func (b *Breaker) Release() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probing = false
}

// State returns the current state. An open breaker whose cooldown has
// passed still reports open until the next Allow.
func (b *Breaker) State() BreakerState {
	if b == nil {
		return BreakerClosed
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

// countsAgainst reports whether a failure of kind k says something about
// the provider's health rather than about this one request.
func countsAgainst(k ErrorKind) bool {
	switch k {
	case KindTimeout, KindConnection, KindRateLimited, KindServer, KindAuth, KindQuotaExhausted, KindProtocol:
		return true
	}
	return false
}

// BreakerSet hands out one Breaker per provider candidate, so every chain
// and agent calling that candidate shares it. It is safe for concurrent
// use.
type BreakerSet struct {
	cfg   BreakerConfig
	clock clockwork.Clock

	mu sync.Mutex
	m  map[string]*Breaker
}

// NewBreakerSet returns an empty set whose breakers use cfg and clock.
func NewBreakerSet(cfg BreakerConfig, clock clockwork.Clock) *BreakerSet {
	return &BreakerSet{cfg: cfg, clock: clock, m: map[string]*Breaker{}}
}

// For returns the breaker of a model ref, creating it on first use.
func (s *BreakerSet) For(ref string) *Breaker {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[ref]
	if !ok {
		b = NewBreaker(s.cfg, s.clock)
		s.m[ref] = b
	}
	return b
}
