package agentstate

import (
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestWakeOnAdmit(t *testing.T) {
	for _, c := range []struct {
		status messages.AgentStatus
		wakes  bool
	}{
		{messages.StatusAsleep, true}, {messages.StatusAwakeIdle, false}, {messages.StatusAwakeRunning, false},
		{messages.StatusPaused, false}, {messages.StatusSuspended, false}, {messages.StatusStopped, false},
	} {
		b := WakeOnAdmit(&State{Status: c.status}, "why")
		if (len(b) == 1) != c.wakes {
			t.Errorf("WakeOnAdmit(%s) = %v, want a wake %v", c.status, eventTypes(b), c.wakes)
		}
		if c.wakes {
			if s := only[messages.AgentStateChanged](t, b); s.To != messages.StatusAwakeIdle || s.Reason != "why" {
				t.Errorf("WakeOnAdmit(%s) = %+v, want awake_idle for why", c.status, s)
			}
		}
	}
}

func TestTimerTick(t *testing.T) {
	fired := messages.TimerFired{TimerID: "tmr-1", FireID: "fire-1"}
	for _, c := range []struct {
		status messages.AgentStatus
		types  []string
	}{
		{messages.StatusAsleep, []string{"timer_fired", "message_admitted", "agent_state_changed"}},
		{messages.StatusAwakeRunning, []string{"timer_fired", "message_admitted"}},
	} {
		b := TimerTick(&State{Status: c.status}, testEnv(), fired, TimerState{Reason: "sleep: later"})
		if !slices.Equal(eventTypes(b), c.types) {
			t.Fatalf("TimerTick while %s = %v, want %v", c.status, eventTypes(b), c.types)
		}
		m := only[messages.MessageAdmitted](t, b).Envelope
		if m.Kind != messages.KindTimerTick || m.SourceRefs["timer_id"] != "tmr-1" || m.SourceRefs["fire_id"] != "fire-1" ||
			m.Body.Text != "Timer tmr-1 fired (sleep: later)." || m.ID != "msg-1" || !m.CreatedAt.Equal(testNow) {
			t.Errorf("tick = %+v, want timer_tick msg-1 naming tmr-1", m)
		}
	}
}

func TestTakeWakeHint(t *testing.T) {
	cases := []struct {
		name     string
		st       *State
		types    []string
		liveness bool
	}{
		{"none pending", &State{Status: messages.StatusAsleep}, nil, false},
		{"contentful, asleep", &State{Status: messages.StatusAsleep, PendingWakeHint: &WakeHint{Source: "ci", Reason: "build broke", Contentful: true}},
			[]string{"message_admitted", "agent_state_changed"}, false},
		{"liveness only, idle", &State{Status: messages.StatusAwakeIdle, PendingWakeHint: &WakeHint{Source: "cron", Reason: "tick"}},
			[]string{"message_admitted"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := TakeWakeHint(c.st, testEnv())
			if !slices.Equal(eventTypes(b), c.types) {
				t.Fatalf("TakeWakeHint = %v, want %v", eventTypes(b), c.types)
			}
			if b == nil {
				return
			}
			m := only[messages.MessageAdmitted](t, b).Envelope
			if IsLivenessOnly(m) != c.liveness || m.SourceRefs["wake_hint"] != c.st.PendingWakeHint.Source || m.Kind != messages.KindSystemTick {
				t.Errorf("tick = %+v, want a system tick from %s, liveness only %v", m, c.st.PendingWakeHint.Source, c.liveness)
			}
		})
	}
}
