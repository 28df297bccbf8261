package bench

import (
	"context"
	"testing"
	"time"
)

// TestTimers runs a small timer workload: every timer fires in the window,
// each about once per interval, and the figures are filled in.
func TestTimers(t *testing.T) {
	cfg := TimersConfig{Timers: 200, Interval: 100 * time.Millisecond, Duration: 500 * time.Millisecond}
	r, err := Timers(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 200 timers × 5 intervals; a loaded CI machine may lose a few at the
	// window's edges, not half.
	if r.Fires < 500 || r.Fires > 1200 {
		t.Errorf("fires = %d, want about 1000", r.Fires)
	}
	// BytesPerPendingTimer is not checked: with 200 timers the heap delta
	// is within the noise of the other tests running in this process.
	if r.StateBytesPerTimer <= 0 || r.FireLatenessMaxMs < r.FireLatenessP99Ms || r.TimerFiresPerSec <= 0 {
		t.Errorf("result %+v", r)
	}
	if err := (TimersConfig{Timers: 1, Interval: time.Second, Duration: time.Millisecond}).Validate(); err == nil {
		t.Error("Validate accepted a window shorter than the interval")
	}
}
