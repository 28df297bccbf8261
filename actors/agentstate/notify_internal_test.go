package agentstate

import (
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

// pending are a warning and a critical system notification waiting for a
// carrier.
var pending = []messages.SystemNotification{
	{Kind: "budget.warning", Level: messages.LevelWarning, Message: "w"},
	{Kind: "disk.full", Level: messages.LevelCritical, Message: "c"},
}

func TestNotificationOf(t *testing.T) {
	cases := []struct {
		name     string
		st       *State
		boundary messages.OperatorBoundary
		parent   string
	}{
		{"a public agent tells the primary operator", &State{}, messages.BoundaryPrimaryOperator, ""},
		{"a private child tells its parent", &State{Visibility: messages.VisibilityPrivate, ParentAgentID: "boss"}, messages.BoundaryParentSupervisor, "boss"},
		{"a public agent with a parent still tells the operator", &State{ParentAgentID: "boss"}, messages.BoundaryPrimaryOperator, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := NotificationOf(c.st, testEnv(), messages.NotifyTurnFailed, "It failed.", "susp-1")
			if n.TargetOperatorBoundary != c.boundary || n.BoundaryAgentID != c.parent || n.NotificationID != "ntf-1" ||
				n.RequestedByAgentID != "a1" || n.SuspensionID != "susp-1" || n.Summary == "" || !n.CreatedAt.Equal(testNow) {
				t.Errorf("NotificationOf = %+v, want to %s %q", n, c.boundary, c.parent)
			}
		})
	}
}

func TestCarriers(t *testing.T) {
	filtered := testEnv()
	filtered.Cfg.NotificationFilter = messages.NotificationFilter{Kinds: map[string]map[string]bool{"budget": {"warning": false}}}
	calls := []messages.ToolCall{{ID: "c1"}, {ID: "c2"}}
	cases := []struct {
		name    string
		st      *State
		env     Env
		carried int // by the next tool result
		force   []string
		splice  []string
	}{
		{"nothing pending", &State{Turn: &TurnState{ID: "t1", Calls: calls, Done: []string{"c1"}}}, testEnv(), 0, nil, nil},
		{"the last result carries all", &State{PendingNotifications: pending, Turn: &TurnState{ID: "t1", Calls: calls, Done: []string{"c1"}}},
			testEnv(), 2, nil, []string{"message_admitted", "message_processing_started"}},
		{"an earlier result carries none", &State{PendingNotifications: pending, Turn: &TurnState{ID: "t1", Calls: calls}},
			testEnv(), 0, nil, []string{"message_admitted", "message_processing_started"}},
		{"the filter holds a kind back", &State{PendingNotifications: pending, Turn: &TurnState{ID: "t1", Calls: calls, Done: []string{"c1"}}},
			filtered, 1, nil, []string{"message_admitted", "message_processing_started"}},
		{"idle and asleep: forced, and woken", &State{Status: messages.StatusAsleep, PendingNotifications: pending},
			testEnv(), 0, []string{"message_admitted", "agent_state_changed"}, nil},
		{"no critical one: not forced", &State{Status: messages.StatusAwakeIdle, PendingNotifications: pending[:1]}, testEnv(), 0, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := BatchCarrier(c.st, c.env); len(got) != c.carried {
				t.Errorf("BatchCarrier = %v, want %d", got, c.carried)
			}
			if c.st.Turn == nil {
				if got := ForceIdleDelivery(c.st, c.env); !slices.Equal(eventTypes(got), c.force) {
					t.Errorf("ForceIdleDelivery = %v, want %v", eventTypes(got), c.force)
				}
				return
			}
			got := CriticalSplice(c.st, c.env)
			if !slices.Equal(eventTypes(got), c.splice) {
				t.Fatalf("CriticalSplice = %v, want %v", eventTypes(got), c.splice)
			}
			if got != nil {
				m, s := only[messages.MessageAdmitted](t, got).Envelope, only[messages.MessageProcessingStarted](t, got)
				if s.MessageID != m.ID || s.TurnID != "t1" || m.SourceRefs["system_notification"] != "critical" {
					t.Errorf("splice = %+v, %+v: want the critical message joined to t1", m, s)
				}
			}
		})
	}
}

func TestChildNotification(t *testing.T) {
	st := &State{ID: "a1", Tasks: map[string]*TaskRecord{"task-7": {TaskID: "task-7", Status: "running", Child: &ChildTaskRecord{ChildAgentID: "kid"}}}}
	n := messages.OperatorNotification{NotificationID: "ntf-kid", AgentID: "kid", RequestedByAgentID: "kid", Reason: messages.NotifySuspensionRequested,
		Summary: "Approve?", TargetOperatorBoundary: messages.BoundaryParentSupervisor, BoundaryAgentID: "a1"}
	b := ChildNotification(st, testEnv(), n)
	rec, sys := only[messages.OperatorNotificationRequested](t, b).Notification, only[messages.SystemNotificationQueued](t, b).Notification
	if rec.AgentID != "a1" || rec.RequestedByAgentID != "kid" || sys.Kind != "child.suspension_requested" || sys.Level != messages.LevelWarning ||
		!strings.Contains(sys.Message, "send it with TaskInput on task task-7") {
		t.Errorf("ChildNotification = %+v, %+v: want it recorded at a1's boundary, with the task hint", rec, sys)
	}
	applyAll(t, st, testNow, b...)
	if again := ChildNotification(st, testEnv(), n); again != nil {
		t.Errorf("ChildNotification again = %v, want nothing", eventTypes(again))
	}
	if st.Budget.Warned || st.Watchdog.ReportedTurn != 0 {
		t.Errorf("a child's notification counted as this agent's own: %+v, %+v", st.Budget, st.Watchdog)
	}
}

func TestStall(t *testing.T) {
	waiting := func(r messages.WaitingReason) *messages.Closure {
		return &messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: r}
	}
	cases := []struct {
		name string
		st   *State
		what string // in the report; "" for none
	}{
		{"never ran", &State{LastClosure: waiting(messages.AwaitingTimer)}, ""},
		{"a timer that is gone", &State{TurnIndex: 2, LastClosure: waiting(messages.AwaitingTimer)}, "a timer, but none is pending"},
		{"a timer pending", &State{TurnIndex: 2, LastClosure: waiting(messages.AwaitingTimer), Timers: map[string]TimerState{"tmr-1": {}}}, ""},
		{"a task with none running", &State{TurnIndex: 2, LastClosure: waiting(messages.AwaitingTaskResult)}, "a background task's result"},
		{"an answer with no question", &State{TurnIndex: 2, LastClosure: waiting(messages.AwaitingOperatorInput)}, "an answer from its operator"},
		{"resting until woken", &State{TurnIndex: 2, LastClosure: waiting(messages.AwaitingExternalChange)}, ""},
		{"already reported", &State{TurnIndex: 2, LastClosure: waiting(messages.AwaitingTimer), Watchdog: WatchdogState{ReportedTurn: 2}}, ""},
		{"busy", &State{TurnIndex: 2, LastClosure: waiting(messages.AwaitingTimer), Turn: &TurnState{ID: "t3"}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.st.ID = "a1"
			b := Stall(c.st, testEnv())
			if (b != nil) != (c.what != "") {
				t.Fatalf("Stall = %v, want a report %v", eventTypes(b), c.what != "")
			}
			if b == nil {
				return
			}
			if n := only[messages.OperatorNotificationRequested](t, b).Notification; n.Reason != messages.NotifyAgentStalled || !strings.Contains(n.Message, c.what) {
				t.Errorf("report = %+v, want agent_stalled naming %q", n, c.what)
			}
			applyAll(t, c.st, testNow, b...)
			if again := Stall(c.st, testEnv()); again != nil {
				t.Errorf("Stall after its report = %v, want nothing (once per closure)", eventTypes(again))
			}
		})
	}
}

func TestTailDropped(t *testing.T) {
	b := TailDropped(&State{ID: "a1"}, testEnv(), 3)
	n, s := only[messages.OperatorNotificationRequested](t, b).Notification, only[messages.SystemNotificationQueued](t, b).Notification
	if n.Reason != messages.NotifyJournalTailDropped || !strings.Contains(n.Message, "3 corrupt record(s)") || s.Level != messages.LevelError {
		t.Errorf("TailDropped = %+v, %+v", n, s)
	}
}
