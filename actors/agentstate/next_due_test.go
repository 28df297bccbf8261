package agentstate

import (
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

func TestNextDue(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	early, late := now.Add(time.Minute), now.Add(time.Hour)
	cases := []struct {
		name string
		st   State
		want time.Time
	}{
		{"nothing open", State{Status: messages.StatusAwakeIdle}, time.Time{}},
		{"earliest of timers and user timers", State{Status: messages.StatusAwakeIdle,
			Timers:     map[string]TimerState{"a": {DueAt: late}},
			UserTimers: map[string]*UserTimer{"u": {NextDueAt: early}, "p": {NextDueAt: now.Add(-time.Hour), Paused: true}}}, early},
		{"a suspension deadline", State{Status: messages.StatusAwakeIdle,
			Timers: map[string]TimerState{"s": {DueAt: late, SuspensionID: "s1"}}}, late},
		{"a timer without a time", State{Status: messages.StatusAwakeIdle, Timers: map[string]TimerState{"a": {}}}, now},
		{"a wake hint is due at once", State{Status: messages.StatusAwakeIdle, PendingWakeHint: &WakeHint{},
			Timers: map[string]TimerState{"a": {DueAt: late}}}, now},
		{"stopped", State{Status: messages.StatusStopped, Timers: map[string]TimerState{"a": {DueAt: late}}}, time.Time{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.st.NextDue(now); !got.Equal(c.want) {
				t.Fatalf("NextDue = %v, want %v", got, c.want)
			}
		})
	}
}
