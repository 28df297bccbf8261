package agentstate

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// workItem is an open, ready item created at testNow minus age.
func workItem(id string, age time.Duration) *messages.WorkItemRecord {
	return &messages.WorkItemRecord{ID: id, AgentID: "a1", Objective: "objective " + id, State: messages.WorkItemStateOpen,
		PlanStatus: messages.PlanReady, CreatedAt: testNow.Add(-age), UpdatedAt: testNow.Add(-age)}
}

func TestWorkBackoffDelay(t *testing.T) {
	for streak, want := range map[int]time.Duration{0: 0, 1: 30 * time.Second, 2: time.Minute, 3: 2 * time.Minute, 7: 30 * time.Minute, 50: 30 * time.Minute} {
		if got := WorkBackoffDelay(streak); got != want {
			t.Errorf("WorkBackoffDelay(%d) = %v, want %v", streak, got, want)
		}
	}
}

func TestWorkActivation(t *testing.T) {
	blocked := workItem("w2", time.Hour)
	blocked.BlockedBy = "waiting for the vendor"
	cases := []struct {
		name    string
		st      func() *State
		types   []string
		queued  bool
		mode    string // the tick's work_queue ref
		item    string
		backoff bool // the batch schedules a backoff timer
	}{
		{"no work", func() *State { return &State{Status: messages.StatusAwakeIdle} }, nil, false, "", "", false},
		{"continue the current item", func() *State {
			st := &State{Status: messages.StatusAwakeIdle}
			st.WorkItems = map[string]*messages.WorkItemRecord{"w1": workItem("w1", time.Hour)}
			st.CurrentWorkItemID = "w1"
			return st
		}, []string{"message_admitted"}, true, TickContinue, "w1", false},
		{"pick the oldest runnable", func() *State {
			st := &State{Status: messages.StatusAwakeIdle}
			st.WorkItems = map[string]*messages.WorkItemRecord{"w1": workItem("w1", time.Minute), "w2": blocked, "w3": workItem("w3", time.Hour)}
			return st
		}, []string{"message_admitted"}, true, TickPick, "w3", false},
		{"asleep", func() *State {
			st := &State{Status: messages.StatusAsleep}
			st.WorkItems = map[string]*messages.WorkItemRecord{"w1": workItem("w1", time.Hour)}
			return st
		}, nil, false, "", "", false},
		{"something queued", func() *State {
			st := &State{Status: messages.StatusAwakeIdle}
			st.WorkItems = map[string]*messages.WorkItemRecord{"w1": workItem("w1", time.Hour)}
			st.Queue.Bands[0] = []messages.MessageEnvelope{{ID: "m1"}}
			return st
		}, nil, false, "", "", false},
		{"only blocked work", func() *State {
			st := &State{Status: messages.StatusAwakeIdle}
			st.WorkItems = map[string]*messages.WorkItemRecord{"w2": blocked}
			return st
		}, nil, false, "", "", false},
		{"in backoff: its timer", func() *State {
			st := &State{Status: messages.StatusAwakeIdle}
			st.WorkItems = map[string]*messages.WorkItemRecord{"w1": workItem("w1", time.Hour)}
			st.CurrentWorkItemID = "w1"
			st.WorkBackoff = map[string]WorkBackoff{"w1": {Streak: 2, Since: testNow.Add(-30 * time.Second)}}
			return st
		}, []string{"timer_scheduled"}, false, "", "w1", true},
		{"in backoff, its timer pending", func() *State {
			st := &State{Status: messages.StatusAwakeIdle}
			st.WorkItems = map[string]*messages.WorkItemRecord{"w1": workItem("w1", time.Hour)}
			st.CurrentWorkItemID = "w1"
			st.WorkBackoff = map[string]WorkBackoff{"w1": {Streak: 2, Since: testNow.Add(-30 * time.Second)}}
			st.Timers = map[string]TimerState{"tmr-0": {DueAt: testNow.Add(30 * time.Second), Purpose: messages.TimerWorkItemBackoff, WorkItemID: "w1"}}
			return st
		}, nil, false, "", "", false},
		{"backoff over", func() *State {
			st := &State{Status: messages.StatusAwakeIdle}
			st.WorkItems = map[string]*messages.WorkItemRecord{"w1": workItem("w1", time.Hour)}
			st.CurrentWorkItemID = "w1"
			st.WorkBackoff = map[string]WorkBackoff{"w1": {Streak: 2, Since: testNow.Add(-time.Minute)}}
			return st
		}, []string{"message_admitted"}, true, TickContinue, "w1", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, queued := WorkActivation(c.st(), testEnv())
			if !slices.Equal(eventTypes(b), c.types) || queued != c.queued {
				t.Fatalf("WorkActivation = %v, %v, want %v, %v", eventTypes(b), queued, c.types, c.queued)
			}
			if c.queued {
				m := only[messages.MessageAdmitted](t, b).Envelope
				if m.SourceRefs[WorkTickRef] != c.mode || m.SourceRefs[WorkItemRef] != c.item || m.Kind != messages.KindSystemTick ||
					m.Priority != messages.PriorityBackground || m.AdmissionContext != messages.AdmissionRuntimeOwned {
					t.Errorf("tick = %+v, want a background %s tick for %s", m, c.mode, c.item)
				}
			}
			if c.backoff {
				if ts := only[messages.TimerScheduled](t, b); ts.WorkItemID != c.item || !ts.DueAt.Equal(testNow.Add(30*time.Second)) {
					t.Errorf("backoff timer = %+v, want %s due in 30s", ts, c.item)
				}
			}
		})
	}
}

func TestWorkItemTimerFire(t *testing.T) {
	due := testNow.Add(-time.Second)
	recheck := func(mut func(r *messages.WorkItemRecord)) *State {
		r := workItem("w1", time.Hour)
		r.BlockedBy, r.RecheckAt = "waiting for the vendor", &due
		if mut != nil {
			mut(r)
		}
		return &State{Status: messages.StatusAsleep, WorkQueueState: WorkQueueState{WorkItems: map[string]*messages.WorkItemRecord{"w1": r}}}
	}
	fired := messages.TimerFired{TimerID: "tmr-9", FireID: "fire-9"}
	cases := []struct {
		name  string
		st    *State
		ts    TimerState
		types []string
	}{
		{"a recheck due", recheck(nil), TimerState{DueAt: due, Purpose: messages.TimerWorkItemRecheck, WorkItemID: "w1"},
			[]string{"timer_fired", "work_item_recheck_consumed", "message_admitted", "agent_state_changed"}},
		{"a backoff only retires", recheck(nil), TimerState{DueAt: due, Purpose: messages.TimerWorkItemBackoff, WorkItemID: "w1"}, []string{"timer_fired"}},
		{"unblocked meanwhile", recheck(func(r *messages.WorkItemRecord) { r.BlockedBy, r.RecheckAt = "", nil }),
			TimerState{DueAt: due, Purpose: messages.TimerWorkItemRecheck, WorkItemID: "w1"}, []string{"timer_fired"}},
		{"a later deadline", recheck(nil), TimerState{DueAt: due.Add(-time.Minute), Purpose: messages.TimerWorkItemRecheck, WorkItemID: "w1"}, []string{"timer_fired"}},
		{"already consumed", recheck(func(r *messages.WorkItemRecord) { r.RecheckConsumedAt = &due }),
			TimerState{DueAt: due, Purpose: messages.TimerWorkItemRecheck, WorkItemID: "w1"}, []string{"timer_fired"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := WorkItemTimerFire(c.st, testEnv(), fired, c.ts)
			if !slices.Equal(eventTypes(b), c.types) {
				t.Fatalf("WorkItemTimerFire = %v, want %v", eventTypes(b), c.types)
			}
			if len(b) > 1 {
				m := only[messages.MessageAdmitted](t, b).Envelope
				if m.SourceRefs[WorkTickRef] != TickRecheck || !strings.Contains(m.Body.Text, "waiting for the vendor") {
					t.Errorf("recheck tick = %+v", m)
				}
			}
		})
	}
}
