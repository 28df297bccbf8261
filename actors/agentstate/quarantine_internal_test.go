package agentstate

import (
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestQuarantine(t *testing.T) {
	cases := []struct {
		name string
		st   *State
	}{
		{"a running agent", &State{ID: "a1", Status: messages.StatusAwakeRunning, Turn: turnAt("")}},
		{"a private child", &State{ID: "a1", Status: messages.StatusAwakeIdle, Visibility: messages.VisibilityPrivate, ParentAgentID: "boss"}},
		{"a journal never written", &State{ID: "a1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			from := c.st.Status
			b := Quarantine(c.st, testEnv(), 3, "panic: boom")
			if !slices.Equal(eventTypes(b), []string{"runtime_error", "agent_state_changed", "operator_notification_requested"}) {
				t.Fatalf("Quarantine = %v", eventTypes(b))
			}
			f := only[messages.RuntimeError](t, b).Failure
			if f.Code != CodeAgentQuarantined || f.Message != "panic: boom" || !strings.Contains(f.Summary, "crashed 3 times") {
				t.Errorf("failure = %+v, want agent_quarantined after 3 crashes", f)
			}
			if s := only[messages.AgentStateChanged](t, b); s.From != from || s.To != messages.StatusStopped {
				t.Errorf("status change = %+v, want %q to stopped", s, from)
			}
			n := only[messages.OperatorNotificationRequested](t, b).Notification
			if n.Reason != messages.NotifyAgentQuarantined || n.TargetOperatorBoundary != messages.BoundaryPrimaryOperator ||
				n.RequestedByAgentID != "a1" || n.NotificationID != "ntf-1" {
				t.Errorf("notification = %+v, want the primary operator's agent_quarantined", n)
			}
			applyAll(t, c.st, testNow, b...)
			if c.st.Status != messages.StatusStopped {
				t.Errorf("status after = %s, want stopped", c.st.Status)
			}
		})
	}
}
