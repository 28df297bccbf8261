package supervision_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/supervision"
)

// fixed returns an rnd that always yields x.
func fixed(x float64) func() float64 { return func() float64 { return x } }

func TestBackoff(t *testing.T) {
	doubling := supervision.Policy{
		MaxRestarts: 5, Within: time.Minute,
		InitialBackoff: 100 * time.Millisecond, MaxBackoff: 30 * time.Second, Multiplier: 2,
	}
	jittered := doubling
	jittered.Jitter = 0.2
	full := doubling
	full.Jitter = 1
	tripling := doubling
	tripling.Multiplier = 3
	constant := doubling
	constant.Multiplier = 1
	huge := doubling
	huge.MaxBackoff = math.MaxInt64
	none := doubling
	none.InitialBackoff = 0

	tests := []struct {
		name     string
		p        supervision.Policy
		failures int
		rnd      float64
		want     time.Duration
	}{
		{"no failures", doubling, 0, 0, 0},
		{"negative failures", doubling, -3, 0, 0},
		{"first", doubling, 1, 0, 100 * time.Millisecond},
		{"second", doubling, 2, 0, 200 * time.Millisecond},
		{"third", doubling, 3, 0, 400 * time.Millisecond},
		{"ninth", doubling, 9, 0, 25600 * time.Millisecond},
		{"tenth hits the cap", doubling, 10, 0, 30 * time.Second},
		{"thousandth stays capped", doubling, 1000, 0, 30 * time.Second},
		{"max int stays capped", doubling, math.MaxInt, 0, 30 * time.Second},
		{"cap of max duration", huge, 1000, 0, math.MaxInt64},
		{"tripling", tripling, 3, 0, 900 * time.Millisecond},
		{"constant", constant, 7, 0, 100 * time.Millisecond},
		{"zero initial", none, 5, 0.5, 0},
		{"jitter with rnd 0", jittered, 3, 0, 400 * time.Millisecond},
		{"jitter with rnd 0.5", jittered, 3, 0.5, 360 * time.Millisecond},
		{"jitter with rnd 1", jittered, 3, 1, 320 * time.Millisecond},
		{"jitter below cap", jittered, 1000, 0.5, 27 * time.Second},
		{"rnd above 1 is clamped", jittered, 3, 7, 320 * time.Millisecond},
		{"rnd below 0 is clamped", jittered, 3, -7, 400 * time.Millisecond},
		{"NaN rnd is clamped", jittered, 3, math.NaN(), 400 * time.Millisecond},
		{"full jitter", full, 2, 0.25, 150 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := supervision.Backoff(tt.p, tt.failures, fixed(tt.rnd)); got != tt.want {
				t.Errorf("Backoff(%d) = %v, want %v", tt.failures, got, tt.want)
			}
		})
	}
}

func TestBackoffNeverExceedsCapOrGoesNegative(t *testing.T) {
	p := supervision.DefaultPolicy()
	p.MaxBackoff = math.MaxInt64
	p.Multiplier = 10
	for failures := range 2000 {
		if got := supervision.Backoff(p, failures, fixed(0.999)); got < 0 || got > p.MaxBackoff {
			t.Fatalf("Backoff(%d) = %v, want within [0, %v]", failures, got, p.MaxBackoff)
		}
	}
}

func TestBackoffJitterBounds(t *testing.T) {
	tests := []struct {
		name   string
		jitter float64
	}{
		{"none", 0},
		{"default", 0.2},
		{"equal", 0.5},
		{"full", 1},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := supervision.DefaultPolicy()
			p.Jitter = tt.jitter
			for failures := 1; failures <= 12; failures++ {
				base := supervision.Backoff(p, failures, fixed(0))
				low := base - time.Duration(float64(base)*tt.jitter)
				lowest, highest := base, time.Duration(0)
				for range 2000 {
					got := supervision.Backoff(p, failures, rng.Float64)
					if got < low || got > base {
						t.Fatalf("Backoff(%d) = %v, want within [%v, %v]", failures, got, low, base)
					}
					lowest, highest = min(lowest, got), max(highest, got)
				}
				// 2000 uniform draws cover the range: each end within 2 %.
				if spread := base - low; spread > 0 && (lowest-low > spread/50 || base-highest > spread/50) {
					t.Errorf("Backoff(%d) drew [%v, %v], want it to span [%v, %v]", failures, lowest, highest, low, base)
				}
			}
		})
	}
}

func TestBackoffNilRand(t *testing.T) {
	p := supervision.DefaultPolicy()
	for range 100 {
		if got := supervision.Backoff(p, 2, nil); got < 160*time.Millisecond || got > 200*time.Millisecond {
			t.Fatalf("Backoff(2) = %v, want within [160ms, 200ms]", got)
		}
	}
}
