package actors_test

import (
	"context"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// seedSettled creates agent id whose one turn ended with closure.
func seedSettled(t *testing.T, h *testkit.Harness, id string, closure messages.Closure) {
	t.Helper()
	env := h.Envelope(id, "Wait for it.", messages.PriorityNormal)
	env.Normalize()
	env.AuthorityClass = messages.DeriveAuthority(env.Origin.Kind, env.DeliverySurface, env.AdmissionContext)
	seed(t, h, id,
		messages.AgentCreated{AgentID: id, Kind: messages.AgentNamed, Visibility: messages.VisibilityPublic,
			Ownership: messages.OwnershipSelfOwned, ProfilePreset: "public_named"},
		messages.AgentStateChanged{From: messages.StatusBooting, To: messages.StatusAwakeIdle, Reason: "created"},
		messages.MessageAdmitted{Envelope: env},
		messages.AgentStateChanged{From: messages.StatusAwakeIdle, To: messages.StatusAwakeRunning, Reason: "processing"},
		messages.MessageProcessingStarted{MessageID: env.ID, TurnID: "turn_1", TurnIndex: 1},
		messages.TurnTerminal{TurnID: "turn_1", MessageID: env.ID, TurnIndex: 1, Kind: messages.TerminalCompleted, Closure: closure},
		messages.AgentStateChanged{From: messages.StatusAwakeRunning, To: messages.StatusAwakeIdle, Reason: "queue empty"},
	)
}

// TestWatchdogReportsImpossibleWaitOnce: each wait that nothing can end
// is reported once, when the agent starts, and not again after a crash;
// the model learns of it with its next message.
func TestWatchdogReportsImpossibleWaitOnce(t *testing.T) {
	cases := []struct {
		reason messages.WaitingReason
		want   string
	}{
		{messages.AwaitingTaskResult, "none of its tasks is running"},
		{messages.AwaitingTimer, "none is pending"},
		{messages.AwaitingOperatorInput, "no question is open"},
	}
	for _, tc := range cases {
		t.Run(string(tc.reason), func(t *testing.T) {
			h := testkit.New(t, testkit.Reply("I will decide on my own."))
			ctx := context.Background()
			seedSettled(t, h, "w", messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: tc.reason})
			if err := h.Runtime.Activate(ctx, "w"); err != nil {
				t.Fatal(err)
			}
			n := decode[messages.OperatorNotificationRequested](t, h.WaitEvent("w", testkit.OfType(messages.EventOperatorNotificationRequested))).Notification
			if n.Reason != messages.NotifyAgentStalled || !strings.Contains(n.Message, tc.want) ||
				n.TargetOperatorBoundary != messages.BoundaryPrimaryOperator {
				t.Fatalf("notification = %+v", n)
			}
			sys := decode[messages.SystemNotificationQueued](t, h.WaitEvent("w", testkit.OfType(messages.EventSystemNotificationQueued))).Notification
			if sys.Kind != "watchdog.stalled" || !strings.Contains(sys.Message, tc.want) {
				t.Fatalf("system notification = %+v", sys)
			}

			h.Restart()
			if err := h.Runtime.Activate(ctx, "w"); err != nil {
				t.Fatal(err)
			}
			h.Prompt("w", "Carry on.")
			h.WaitEvent("w", testkit.NthOfType(messages.EventTurnTerminal, 2))
			if n := testkit.CountOfType(h.Events("w"), messages.EventOperatorNotificationRequested); n != 1 {
				t.Fatalf("%d stall notifications, want 1; journal:\n%s", n, testkit.Describe(h.Events("w")))
			}
			if carried := lastMessage(t, h).Notifications; len(carried) != 1 || carried[0].Kind != "watchdog.stalled" {
				t.Fatalf("the model was given %+v, want the watchdog's notification", carried)
			}
		})
	}
}

// TestWatchdogLeavesLegitimateWaitsAlone: sleeping until woken, a
// completed turn and a pending timer are not stalls.
func TestWatchdogLeavesLegitimateWaitsAlone(t *testing.T) {
	h := testkit.New(t, testkit.Reply("", testkit.Call("s1", actors.SleepToolName, `{"duration_ms":60000,"reason":"later"}`)))
	ctx := context.Background()
	h.Prompt("main", "Check again in a minute.")
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.Closure.WaitingReason != messages.AwaitingTimer {
		t.Fatalf("closure = %+v, want a timer wait", tt.Closure)
	}
	h.Restart()
	if _, err := h.Runtime.State(ctx, "main"); err != nil {
		t.Fatal(err)
	}
	if n := testkit.CountOfType(h.Events("main"), messages.EventOperatorNotificationRequested); n != 0 {
		t.Fatalf("a pending timer was reported stalled:\n%s", testkit.Describe(h.Events("main")))
	}
	seedSettled(t, h, "sleeper", messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingExternalChange})
	seedSettled(t, h, "done", messages.Closure{Outcome: messages.OutcomeCompleted})
	for _, id := range []string{"sleeper", "done"} {
		if err := h.Runtime.Activate(ctx, id); err != nil {
			t.Fatal(err)
		}
		// A round trip through the agent: its start (and watchdog) is over.
		if _, err := h.Runtime.State(ctx, id); err != nil {
			t.Fatal(err)
		}
		if n := testkit.CountOfType(h.Events(id), messages.EventOperatorNotificationRequested); n != 0 {
			t.Fatalf("%s: %d notifications, want none; journal:\n%s", id, n, testkit.Describe(h.Events(id)))
		}
	}
}
