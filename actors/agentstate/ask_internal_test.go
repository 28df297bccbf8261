package agentstate

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

// asking is a running agent whose turn's model asked args.
func asking(args AskState) *State {
	tt := turnAt("I need a decision.")
	tt.Ask, tt.AskCallID = &args, "ask1"
	return &State{ID: "a1", Status: messages.StatusAwakeRunning, Turn: tt}
}

var refund = AskState{Question: "Refund order #12345?", Choices: []AskChoice{{Value: "approve", Label: "Approve"}, {Value: "deny", Label: "Deny"}}}

// suspendedOn applies the suspension of args to a fresh agent and returns
// it with its open suspension.
func suspendedOn(t *testing.T, args AskState) (*State, *messages.SuspensionRecord) {
	t.Helper()
	st := asking(args)
	applyAll(t, st, testNow, SuspendedTurn(st, testEnv())...)
	rec := st.OpenSuspension()
	if rec == nil || st.Status != messages.StatusSuspended {
		t.Fatalf("after suspendedTurn: status %s, open %v; want suspended on a question", st.Status, rec)
	}
	return st, rec
}

func TestSuspendedTurn(t *testing.T) {
	timed := refund
	timed.TimeoutSeconds, timed.Confidence = 60, new(float64)
	bad := refund
	bad.ResponseType = "poll"
	cases := []struct {
		name  string
		args  AskState
		types []string
	}{
		{"untimed", refund, []string{"turn_terminal", "brief_recorded", "suspension_requested", "operator_notification_requested", "agent_state_changed"}},
		{"timed, with signals", timed, []string{"engagement_decision", "turn_terminal", "brief_recorded", "suspension_requested",
			"operator_notification_requested", "timer_scheduled", "agent_state_changed"}},
		{"unrecordable", bad, []string{"runtime_error", "turn_terminal", "brief_recorded", "operator_notification_requested"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := SuspendedTurn(asking(c.args), testEnv())
			if !slices.Equal(eventTypes(b), c.types) {
				t.Fatalf("suspendedTurn = %v, want %v", eventTypes(b), c.types)
			}
			if c.name == "unrecordable" {
				if f := only[messages.RuntimeError](t, b).Failure; f.Code != "invalid_suspension" {
					t.Errorf("failure = %+v, want invalid_suspension", f)
				}
				return
			}
			rec := only[messages.SuspensionRequested](t, b).Suspension
			n := only[messages.OperatorNotificationRequested](t, b).Notification
			br := only[messages.BriefRecorded](t, b).Brief
			if rec.ID != "susp-1" || rec.CallID != "ask1" || n.SuspensionID != rec.ID || n.Reason != messages.NotifySuspensionRequested ||
				br.Kind != messages.BriefActionRequired || !strings.Contains(br.Text, "holon-actors respond a1 susp-1 <value>") {
				t.Errorf("suspension %+v, notification %+v, brief %+v: want them bound to susp-1", rec, n, br)
			}
			if c.args.TimeoutSeconds > 0 {
				ts := only[messages.TimerScheduled](t, b)
				if ts.SuspensionID != rec.ID || !ts.DueAt.Equal(testNow.Add(60e9)) || rec.ExpiresAt == nil || !rec.ExpiresAt.Equal(ts.DueAt) {
					t.Errorf("timer %+v, expiry %v: want both a minute from now", ts, rec.ExpiresAt)
				}
			}
		})
	}
}

func TestAnswerSuspension(t *testing.T) {
	// respond is an answer, or with cancel a cancellation with its reason.
	type respond struct {
		a      Answer
		cancel bool
		reason string
	}
	answer := func(id, value string) *respond {
		return &respond{a: Answer{SuspensionID: id, Value: json.RawMessage(value), RespondedBy: "ops"}}
	}
	invalid := new(*messages.InvalidAnswerError)
	cases := []struct {
		name    string
		prior   *respond // accepted before m
		status  messages.AgentStatus
		m       *respond
		err     any // a sentinel (errors.Is) or a target (errors.As)
		types   []string
		resolve messages.SuspensionResolution
	}{
		{"accepted", nil, "", answer("susp-1", `"approve"`), nil,
			[]string{"suspension_resumed", "message_admitted", "agent_state_changed"}, messages.ResolutionResponded},
		{"cancelled", nil, "", &respond{a: Answer{SuspensionID: "susp-1"}, cancel: true, reason: "moot"}, nil,
			[]string{"suspension_resumed", "message_admitted", "agent_state_changed"}, messages.ResolutionCancelled},
		{"unknown id", nil, "", answer("susp-9", `"approve"`), ErrSuspensionNotFound, nil, ""},
		{"not a choice", nil, "", answer("susp-1", `"maybe"`), invalid, nil, ""},
		{"agent paused", nil, messages.StatusPaused, answer("susp-1", `"approve"`), ErrNotSuspended, nil, ""},
		{"same answer again", answer("susp-1", `"approve"`), "", answer("susp-1", ` "approve" `), nil, nil, messages.ResolutionResponded},
		{"another answer after", answer("susp-1", `"approve"`), "", answer("susp-1", `"deny"`), ErrSuspensionClosed, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, _ := suspendedOn(t, refund)
			if c.prior != nil {
				b, _, err := AnswerSuspension(st, testEnv(), c.prior.a, c.prior.cancel, c.prior.reason)
				if err != nil {
					t.Fatal(err)
				}
				applyAll(t, st, testNow, b...)
			}
			if c.status != "" {
				st.Status = c.status
			}
			b, resp, err := AnswerSuspension(st, testEnv(), c.m.a, c.m.cancel, c.m.reason)
			switch want := c.err.(type) {
			case nil:
				if err != nil {
					t.Fatalf("answerSuspension: %v", err)
				}
			case error:
				if !errors.Is(err, want) {
					t.Fatalf("answerSuspension error = %v, want %v", err, want)
				}
			default:
				if !errors.As(err, want) {
					t.Fatalf("answerSuspension error = %v, want %T", err, want)
				}
			}
			if !slices.Equal(eventTypes(b), c.types) {
				t.Fatalf("answerSuspension = %v, want %v", eventTypes(b), c.types)
			}
			if resp.Resolution != c.resolve {
				t.Errorf("response = %+v, want %q", resp, c.resolve)
			}
			if c.types != nil {
				in := only[messages.MessageAdmitted](t, b).Envelope
				if in.ID != "msg-1" || in.SourceRefs["suspension_id"] != "susp-1" || in.AuthorityClass != messages.AuthorityOperatorInstruction {
					t.Errorf("input = %+v, want an operator instruction bound to susp-1", in)
				}
			}
		})
	}
}

func TestSuspensionFire(t *testing.T) {
	withPolicy := func(attempts int, final, fallback string) AskState {
		a := refund
		a.TimeoutSeconds, a.FallbackValue = 60, fallback
		a.RetryPolicy = &AskRetry{IntervalSeconds: 60, MaxAttempts: attempts, FinalFallbackPolicy: final}
		return a
	}
	cases := []struct {
		name    string
		args    AskState
		settle  bool // answered before the fire
		types   []string
		reason  string
		wakesTo messages.AgentStatus
	}{
		{"reminder", withPolicy(3, "", ""), false,
			[]string{"timer_fired", "operator_notification_requested", "timer_scheduled"}, messages.NotifySuspensionReminder, messages.StatusSuspended},
		{"expired, fails", withPolicy(1, "fail", ""), false,
			[]string{"timer_fired", "suspension_expired", "brief_recorded", "operator_notification_requested", "agent_state_changed"},
			messages.NotifySuspensionExpired, messages.StatusAwakeIdle},
		{"expired, resumes with the fallback", withPolicy(1, "complete_with_fallback", "deny"), false,
			[]string{"timer_fired", "suspension_expired", "message_admitted", "operator_notification_requested", "agent_state_changed"},
			messages.NotifySuspensionExpired, messages.StatusAwakeIdle},
		{"answered meanwhile", withPolicy(3, "", ""), true, []string{"timer_fired"}, "", messages.StatusAwakeIdle},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, rec := suspendedOn(t, c.args)
			var ts TimerState
			var id string
			for tid, v := range st.Timers {
				id, ts = tid, v
			}
			if c.settle {
				b, _, err := AnswerSuspension(st, testEnv(), Answer{SuspensionID: rec.ID, Value: json.RawMessage(`"approve"`)}, false, "")
				if err != nil {
					t.Fatal(err)
				}
				applyAll(t, st, testNow, b...)
			}
			b := SuspensionFire(st, testEnv(), messages.TimerFired{TimerID: id, FireID: "fire-1"}, ts)
			if !slices.Equal(eventTypes(b), c.types) {
				t.Fatalf("suspensionFire = %v, want %v", eventTypes(b), c.types)
			}
			if c.reason != "" {
				if n := only[messages.OperatorNotificationRequested](t, b).Notification; n.Reason != c.reason || n.SuspensionID != rec.ID {
					t.Errorf("notification = %+v, want %s of %s", n, c.reason, rec.ID)
				}
			}
			applyAll(t, st, testNow, b...)
			if st.Status != c.wakesTo {
				t.Errorf("status after the fire = %s, want %s", st.Status, c.wakesTo)
			}
		})
	}
}

func TestResumedStatus(t *testing.T) {
	st, _ := suspendedOn(t, refund)
	cases := []struct {
		name string
		st   *State
		want messages.AgentStatus
	}{
		{"a question open", st, messages.StatusSuspended},
		{"mid-turn", &State{Turn: turnAt("")}, messages.StatusAwakeRunning},
		{"nothing", &State{}, messages.StatusAwakeIdle},
	}
	for _, c := range cases {
		if got := ResumedStatus(c.st); got != c.want {
			t.Errorf("%s: resumedStatus = %s, want %s", c.name, got, c.want)
		}
	}
}
