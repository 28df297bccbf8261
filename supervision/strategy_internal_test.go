package supervision

import (
	"fmt"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// fakeSupervisor records the directives a Strategy sends.
type fakeSupervisor struct{ restarted, stopped, resumed []*actor.PID }

func (f *fakeSupervisor) Children() []*actor.PID          { return nil }
func (f *fakeSupervisor) EscalateFailure(any, any)        {}
func (f *fakeSupervisor) RestartChildren(p ...*actor.PID) { f.restarted = append(f.restarted, p...) }
func (f *fakeSupervisor) StopChildren(p ...*actor.PID)    { f.stopped = append(f.stopped, p...) }
func (f *fakeSupervisor) ResumeChildren(p ...*actor.PID)  { f.resumed = append(f.resumed, p...) }

// fixture drives a Strategy by hand: a clock it advances and the restarts
// the strategy scheduled, not yet run.
type fixture struct {
	s       *Strategy
	sup     *fakeSupervisor
	now     time.Time
	pending []func()
}

func newFixture(t *testing.T, p Policy, opts ...Option) *fixture {
	t.Helper()
	f := &fixture{sup: &fakeSupervisor{}, now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	opts = append([]Option{
		WithClock(func() time.Time { return f.now }),
		WithScheduler(func(_ time.Duration, run func()) { f.pending = append(f.pending, run) }),
	}, opts...)
	s, err := NewStrategy(p, opts...)
	if err != nil {
		t.Fatalf("NewStrategy: %v", err)
	}
	f.s = s
	return f
}

func (f *fixture) fail(pid *actor.PID, reason any) {
	f.s.HandleFailure(nil, f.sup, pid, actor.NewRestartStatistics(), reason, nil)
}

func (f *fixture) runPending() {
	run := f.pending
	f.pending = nil
	for _, r := range run {
		r()
	}
}

func (f *fixture) tracked() int {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	return len(f.s.children)
}

func TestStrategyForgetCancelsPendingRestart(t *testing.T) {
	f := newFixture(t, DefaultPolicy())
	pid := actor.NewPID("nonhost", "$1")
	f.fail(pid, "boom")
	f.s.Forget(pid)
	f.runPending()
	if len(f.sup.restarted) != 0 {
		t.Errorf("restarted %v after Forget, want none", f.sup.restarted)
	}
	if n := f.tracked(); n != 0 {
		t.Errorf("tracked children = %d after Forget, want 0", n)
	}
}

func TestStrategyDropsQuietChildren(t *testing.T) {
	p := DefaultPolicy()
	f := newFixture(t, p)
	for i := range 100 {
		f.fail(actor.NewPID("nonhost", fmt.Sprintf("$%d", i)), "boom")
	}
	f.runPending()
	if len(f.sup.restarted) != 100 {
		t.Fatalf("restarted %d children, want 100", len(f.sup.restarted))
	}
	if n := f.tracked(); n != 100 {
		t.Fatalf("tracked children = %d, want 100", n)
	}
	f.now = f.now.Add(p.Within)
	f.fail(actor.NewPID("nonhost", "$new"), "boom")
	if n := f.tracked(); n != 1 {
		t.Errorf("tracked children = %d after a quiet window, want 1", n)
	}
}

func TestStrategyKeepsChildWithPendingRestart(t *testing.T) {
	p := DefaultPolicy()
	p.Within, p.InitialBackoff, p.MaxBackoff = time.Second, time.Minute, time.Minute
	f := newFixture(t, p)
	slow := actor.NewPID("nonhost", "$slow")
	f.fail(slow, "boom")               // restart due in a minute, window already over then
	f.now = f.now.Add(2 * time.Second) // the window is empty but the restart pending
	f.fail(actor.NewPID("nonhost", "$other"), "boom")
	f.runPending()
	if len(f.sup.restarted) != 2 {
		t.Errorf("restarted %v, want both children (a sweep must not cancel a pending restart)", f.sup.restarted)
	}
}

func TestStrategyDirectives(t *testing.T) {
	tests := []struct {
		name                        string
		directive                   actor.Directive
		restarted, stopped, resumed int
		giveUps                     int
	}{
		{"restart", actor.RestartDirective, 1, 0, 0, 0},
		{"stop", actor.StopDirective, 0, 1, 0, 1},
		{"resume", actor.ResumeDirective, 0, 0, 1, 0},
		{"unknown stops", actor.Directive(42), 0, 1, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			giveUps := 0
			f := newFixture(t, DefaultPolicy(),
				WithDecider(func(any) actor.Directive { return tt.directive }),
				WithGiveUp(func(*actor.PID, any, int) { giveUps++ }))
			f.fail(actor.NewPID("nonhost", "$1"), "boom")
			f.runPending()
			got := [4]int{len(f.sup.restarted), len(f.sup.stopped), len(f.sup.resumed), giveUps}
			want := [4]int{tt.restarted, tt.stopped, tt.resumed, tt.giveUps}
			if got != want {
				t.Errorf("restarted, stopped, resumed, giveUps = %v, want %v", got, want)
			}
		})
	}
}
