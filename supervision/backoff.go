package supervision

import (
	"math"
	"math/rand/v2"
	"time"
)

// Backoff returns the delay before the restart that follows the failures-th
// failure in the current window (failures counts from 1; 0 or less gives 0).
//
// The undelayed value is d = InitialBackoff × Multiplier^(failures-1), capped
// at MaxBackoff; it is computed in floating point and clamped, so it never
// overflows, however large failures is. Jitter is subtracted, never added:
//
//	delay = d - d × Jitter × rnd()
//
// so the delay lies in [d×(1-Jitter), d] and never exceeds MaxBackoff. With
// Jitter 1 this is "full jitter" (uniform in [0, d]), with 0.5 "equal jitter"
// (half fixed, half random); the default 0.2 keeps most of the curve and
// only spreads simultaneous restarts apart.
//
// rnd returns a number in [0, 1), like rand.Float64, and values outside
// [0, 1] are clamped; nil uses math/rand/v2. Backoff does not validate p.
func Backoff(p Policy, failures int, rnd func() float64) time.Duration {
	d := undelayed(p, failures)
	if d <= 0 || p.Jitter <= 0 {
		return d
	}
	if rnd == nil {
		rnd = rand.Float64
	}
	cut := float64(d) * min(p.Jitter, 1) * clamp01(rnd())
	return d - time.Duration(cut)
}

// undelayed is Backoff without jitter.
func undelayed(p Policy, failures int) time.Duration {
	if failures <= 0 || p.InitialBackoff <= 0 || p.MaxBackoff <= 0 {
		return 0
	}
	d := float64(p.InitialBackoff) * math.Pow(p.Multiplier, float64(failures-1))
	if !(d < float64(p.MaxBackoff)) { // also catches +Inf and NaN
		return p.MaxBackoff
	}
	return time.Duration(d)
}

func clamp01(x float64) float64 {
	if !(x > 0) { // also catches NaN
		return 0
	}
	return min(x, 1)
}
