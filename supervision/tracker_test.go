package supervision_test

import (
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/supervision"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func noJitter() supervision.Policy {
	p := supervision.DefaultPolicy()
	p.Jitter = 0
	return p
}

func TestTrackerBurstGivesUpAfterBudget(t *testing.T) {
	tr := supervision.NewTracker(noJitter(), nil) // 5 within 60 s
	wantDelays := []time.Duration{100, 200, 400, 800, 1600}
	now := t0
	for i, ms := range wantDelays {
		now = now.Add(time.Second)
		d := tr.Record(now)
		want := supervision.Decision{Restart: true, Delay: ms * time.Millisecond, FailuresInWindow: i + 1}
		if d != want {
			t.Fatalf("Record(failure %d) = %+v, want %+v", i+1, d, want)
		}
	}
	d := tr.Record(now.Add(time.Second))
	if want := (supervision.Decision{GiveUp: true, FailuresInWindow: 6}); d != want {
		t.Fatalf("Record(failure 6) = %+v, want %+v", d, want)
	}
}

func TestTrackerWindow(t *testing.T) {
	tests := []struct {
		name     string
		policy   func(*supervision.Policy)
		gaps     []time.Duration // before each failure
		wantGive int             // 1-based failure that gives up; 0 never
	}{
		{"six in a minute", nil, repeat(6, 10*time.Second), 6},
		{"six just inside the window", nil, append([]time.Duration{0}, repeat(5, 11999*time.Millisecond)...), 6},
		{"spread out never gives up", nil, repeat(100, 12*time.Second), 0},
		{"once a day never gives up", nil, repeat(365, 24*time.Hour), 0},
		{"burst after quiet", nil, append(repeat(5, time.Second), time.Minute, time.Second, time.Second, time.Second, time.Second, time.Second), 11},
		{"no restarts allowed", func(p *supervision.Policy) { p.MaxRestarts = 0 }, repeat(1, 0), 1},
		{"one restart per 5 s (OTP default)", func(p *supervision.Policy) { p.MaxRestarts, p.Within = 1, 5*time.Second }, []time.Duration{0, 6 * time.Second, 4 * time.Second}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := noJitter()
			if tt.policy != nil {
				tt.policy(&p)
			}
			tr := supervision.NewTracker(p, nil)
			now, gaveUp := t0, 0
			for i, gap := range tt.gaps {
				now = now.Add(gap)
				d := tr.Record(now)
				if d.Restart == d.GiveUp {
					t.Fatalf("Record(failure %d) = %+v, want exactly one of Restart and GiveUp", i+1, d)
				}
				if d.GiveUp && gaveUp == 0 {
					gaveUp = i + 1
				}
			}
			if gaveUp != tt.wantGive {
				t.Errorf("first GiveUp at failure %d, want %d", gaveUp, tt.wantGive)
			}
		})
	}
}

func TestTrackerForgetsAndRecovers(t *testing.T) {
	p := noJitter()
	p.MaxRestarts, p.Within = 2, time.Minute
	tr := supervision.NewTracker(p, nil)
	for range 3 {
		tr.Record(t0)
	}
	if d := tr.Record(t0.Add(59 * time.Second)); !d.GiveUp {
		t.Fatalf("Record(+59s) = %+v, want GiveUp (sticky while the window is full)", d)
	}
	if got := tr.Failures(t0.Add(time.Minute)); got != 1 {
		t.Errorf("Failures(+60s) = %d, want 1", got)
	}
	if d := tr.Record(t0.Add(2 * time.Minute)); !d.Restart || d.FailuresInWindow != 1 || d.Delay != p.InitialBackoff {
		t.Errorf("Record(+120s) = %+v, want a first restart after %v", d, p.InitialBackoff)
	}
	tr.Reset()
	if got := tr.Failures(t0.Add(2 * time.Minute)); got != 0 {
		t.Errorf("Failures after Reset = %d, want 0", got)
	}
}

func TestTrackerMemoryIsBounded(t *testing.T) {
	p := noJitter()
	tr := supervision.NewTracker(p, nil)
	for i := range 100_000 {
		d := tr.Record(t0.Add(time.Duration(i) * time.Millisecond))
		if d.FailuresInWindow > p.MaxRestarts+1 {
			t.Fatalf("Record(failure %d).FailuresInWindow = %d, want at most %d", i+1, d.FailuresInWindow, p.MaxRestarts+1)
		}
	}
	allocs := testing.AllocsPerRun(1000, func() { tr.Record(t0.Add(time.Hour)) })
	if allocs != 0 {
		t.Errorf("Record allocates %v times per call on a full window, want 0", allocs)
	}
}

func repeat(n int, gap time.Duration) []time.Duration {
	gaps := make([]time.Duration, n)
	for i := range gaps {
		gaps[i] = gap
	}
	return gaps
}
