package agentstate

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// turnAt is a turn in flight, started a second before testNow.
func turnAt(text string) *TurnState {
	return &TurnState{ID: "t1", MessageID: "m1", Index: 3, StartedAt: testNow.Add(-time.Second), LastText: text}
}

func TestContinuationOf(t *testing.T) {
	msg := func(kind messages.MessageKind, refs map[string]string) messages.MessageEnvelope {
		return messages.MessageEnvelope{ID: "m9", Kind: kind, SourceRefs: refs}
	}
	waiting := func(r messages.WaitingReason) *messages.Closure {
		return &messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: r}
	}
	cases := []struct {
		name    string
		last    *messages.Closure
		m       messages.MessageEnvelope
		visible bool
		matched bool
		prior   messages.ClosureOutcome
	}{
		{"first message", nil, msg(messages.KindOperatorPrompt, nil), true, false, messages.OutcomeCompleted},
		{"the timer it waited for", waiting(messages.AwaitingTimer), msg(messages.KindTimerTick, nil), true, true, messages.OutcomeWaiting},
		{"not the timer it waited for", waiting(messages.AwaitingTimer), msg(messages.KindOperatorPrompt, nil), true, false, messages.OutcomeWaiting},
		{"a task status is not shown", waiting(messages.AwaitingTaskResult), msg(messages.KindTaskStatus, nil), false, true, messages.OutcomeWaiting},
		{"a liveness tick is not shown", nil, msg(messages.KindSystemTick, map[string]string{"liveness_only": "true"}), false, false, messages.OutcomeCompleted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ContinuationOf(&State{LastClosure: c.last}, c.m)
			if got.ModelVisible != c.visible || got.MatchedWaitingReason != c.matched || got.PriorClosureOutcome != c.prior ||
				!slices.Equal(got.Evidence, []string{"message:m9"}) {
				t.Errorf("continuationOf = %+v, want visible %v, matched %v, prior %s", got, c.visible, c.matched, c.prior)
			}
		})
	}
}

func TestCompletedTurn(t *testing.T) {
	running := &TaskRecord{TaskID: "task-1", ParentMessageID: "m1", Status: "running"}
	cases := []struct {
		name    string
		tasks   map[string]*TaskRecord
		closure messages.Closure
		brief   messages.BriefKind
		text    string
	}{
		{"result", nil, messages.Closure{Outcome: messages.OutcomeCompleted}, messages.BriefResult, "Done."},
		{"another message's task does not wait", map[string]*TaskRecord{"task-2": {TaskID: "task-2", ParentMessageID: "m0", Status: "running"}},
			messages.Closure{Outcome: messages.OutcomeCompleted}, messages.BriefResult, "Done."},
		{"its own task runs on", map[string]*TaskRecord{"task-1": running},
			messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingTaskResult}, messages.BriefAck,
			"Done.\n\nStill running in the background: task-1. Their results come back to me when they finish."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &State{ID: "a1", Turn: turnAt("Done."), Tasks: c.tasks}
			b := CompletedTurn(st, testEnv())
			if !slices.Equal(eventTypes(b), []string{"turn_terminal", "brief_recorded"}) {
				t.Fatalf("completedTurn = %v", eventTypes(b))
			}
			term := only[messages.TurnTerminal](t, b)
			if term.Kind != messages.TerminalCompleted || term.Closure.Outcome != c.closure.Outcome ||
				term.Closure.WaitingReason != c.closure.WaitingReason || term.DurationMS != 1000 || term.LastAssistantMessage != "Done." {
				t.Errorf("terminal = %+v, want closure %+v after 1000 ms", term, c.closure)
			}
			br := only[messages.BriefRecorded](t, b).Brief
			if br.ID != "brief-1" || br.Kind != c.brief || br.Text != c.text || br.RelatedMessageID != "m1" || !br.CreatedAt.Equal(testNow) {
				t.Errorf("brief = %+v, want %s %q", br, c.brief, c.text)
			}
		})
	}
}

func TestFailedTurn(t *testing.T) {
	calls := []messages.ToolCall{{ID: "c1", Name: "read"}, {ID: "c2", Name: "write"}, {ID: "c3", Name: "exec"}}
	cases := []struct {
		name   string
		turn   func() *TurnState
		code   string
		types  []string
		notice string // the operator notification's reason; "" for none
	}{
		{"awaiting the model", func() *TurnState { tt := turnAt(""); tt.AwaitingModel = true; return tt }, CodeLoopBreaker,
			[]string{"runtime_error", "turn_terminal", "brief_recorded", "operator_notification_requested"}, messages.NotifyLoopBreaker},
		{"calls left unanswered", func() *TurnState {
			tt := turnAt("")
			tt.Calls, tt.Started, tt.Done = calls, []string{"c1", "c2"}, []string{"c1"}
			return tt
		}, CodeTokenBudget,
			[]string{"tool_executed", "tool_executed", "runtime_error", "turn_terminal", "brief_recorded", "operator_notification_requested"},
			messages.NotifyTokenBudget},
		{"the operator stopped it", func() *TurnState { return turnAt("") }, CodeAgentStopped,
			[]string{"runtime_error", "turn_terminal", "brief_recorded"}, ""},
		{"any other failure", func() *TurnState { return turnAt("") }, "provider_failed",
			[]string{"runtime_error", "turn_terminal", "brief_recorded", "operator_notification_requested"}, messages.NotifyTurnFailed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &State{ID: "a1", Turn: c.turn(), PendingNotifications: []messages.SystemNotification{{Kind: "k", Message: "m"}}}
			b := FailedTurn(st, testEnv(), messages.TerminalAborted, RuntimeFailure(c.code, "It failed."))
			if !slices.Equal(eventTypes(b), c.types) {
				t.Fatalf("failedTurn = %v, want %v", eventTypes(b), c.types)
			}
			if term := only[messages.TurnTerminal](t, b); term.Closure.Outcome != messages.OutcomeFailed || term.Kind != messages.TerminalAborted {
				t.Errorf("terminal = %+v, want an aborted, failed closure", term)
			}
			if br := only[messages.BriefRecorded](t, b).Brief; br.Kind != messages.BriefFailure || br.Text != "It failed." {
				t.Errorf("brief = %+v, want the failure summary", br)
			}
			var answered []messages.ToolExecuted
			for _, p := range b {
				if te, ok := p.(messages.ToolExecuted); ok {
					answered = append(answered, te)
				}
			}
			if len(answered) > 0 {
				first, last := answered[0], answered[len(answered)-1]
				if first.CallID != "c2" || first.Status != messages.ToolInterrupted || len(first.Notifications) != 0 ||
					last.CallID != "c3" || len(last.Notifications) != 1 {
					t.Errorf("answers = %+v, want c2 interrupted, then c3 carrying the notification", answered)
				}
			}
			if c.notice != "" {
				if n := only[messages.OperatorNotificationRequested](t, b).Notification; n.Reason != c.notice || n.Message != "It failed." {
					t.Errorf("notification = %+v, want %s", n, c.notice)
				}
			}
		})
	}
}

func TestLivenessTurn(t *testing.T) {
	for _, last := range []*messages.Closure{nil, {Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingTimer}} {
		b := LivenessTurn(&State{Turn: turnAt(""), LastClosure: last})
		term := only[messages.TurnTerminal](t, b)
		want := messages.Closure{Outcome: messages.OutcomeCompleted}
		if last != nil {
			want = *last
		}
		if len(b) != 1 || term.Closure.Outcome != want.Outcome || term.Closure.WaitingReason != want.WaitingReason {
			t.Errorf("livenessTurn after %+v = %+v, want only a terminal keeping the closure", last, b)
		}
	}
}

func TestSleptTurn(t *testing.T) {
	cases := []struct {
		name  string
		args  SleepState
		types []string
		wait  messages.WaitingReason
	}{
		{"until woken", SleepState{Reason: "nothing to do"},
			[]string{"turn_terminal", "brief_recorded", "agent_slept", "agent_state_changed"}, messages.AwaitingExternalChange},
		{"timed", SleepState{DurationMS: 60_000, Reason: "later"},
			[]string{"turn_terminal", "brief_recorded", "timer_scheduled", "agent_slept", "agent_state_changed"}, messages.AwaitingTimer},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tt := turnAt("Resting.")
			tt.Sleep = &c.args
			b := SleptTurn(&State{Status: messages.StatusAwakeRunning, Turn: tt}, testEnv())
			if !slices.Equal(eventTypes(b), c.types) {
				t.Fatalf("sleptTurn = %v, want %v", eventTypes(b), c.types)
			}
			if term := only[messages.TurnTerminal](t, b); term.Closure.WaitingReason != c.wait {
				t.Errorf("closure = %+v, want waiting %s", term.Closure, c.wait)
			}
			if s := only[messages.AgentStateChanged](t, b); s.From != messages.StatusAwakeRunning || s.To != messages.StatusAsleep {
				t.Errorf("status = %+v, want running to asleep", s)
			}
			if c.args.DurationMS > 0 {
				ts := only[messages.TimerScheduled](t, b)
				if slept := only[messages.AgentSlept](t, b); !ts.DueAt.Equal(testNow.Add(time.Minute)) || slept.Until == nil || !slept.Until.Equal(ts.DueAt) {
					t.Errorf("timer %+v, slept %+v: want both due a minute from now", ts, slept)
				}
			}
		})
	}
}

func TestInterjectSplice(t *testing.T) {
	interject := func(id string, kind messages.MessageKind, auth messages.AuthorityClass) messages.MessageEnvelope {
		return messages.MessageEnvelope{ID: id, Kind: kind, Priority: messages.PriorityInterject, AuthorityClass: auth}
	}
	st := &State{Turn: turnAt(""), PendingNotifications: []messages.SystemNotification{{Kind: "k", Message: "m"}}}
	st.Queue.Bands[messages.PriorityInterject.Rank()] = []messages.MessageEnvelope{
		interject("i1", messages.KindOperatorPrompt, messages.AuthorityOperatorInstruction),
		interject("i2", messages.KindWebhookEvent, messages.AuthorityExternalEvidence),
		interject("i3", messages.KindOperatorPrompt, messages.AuthorityOperatorInstruction),
	}
	b := InterjectSplice(st, testEnv())
	var ids []string
	for i, p := range b {
		s := p.(messages.MessageProcessingStarted)
		ids = append(ids, s.MessageID)
		if s.TurnID != "t1" || (i == 0) != (len(s.Notifications) == 1) {
			t.Errorf("splice %d = %+v, want it in t1, only the first carrying the notification", i, s)
		}
	}
	if !slices.Equal(ids, []string{"i1", "i3"}) {
		t.Errorf("spliced %v, want the trusted interjects i1, i3", ids)
	}
	if b := InterjectSplice(&State{Turn: turnAt("")}, testEnv()); b != nil {
		t.Errorf("interjectSplice with none queued = %v, want nil", eventTypes(b))
	}
}

func TestTurnStart(t *testing.T) {
	m := messages.MessageEnvelope{ID: "m2", Kind: messages.KindOperatorPrompt}
	cases := []struct {
		name   string
		status messages.AgentStatus
		types  []string
	}{
		{"from idle", messages.StatusAwakeIdle, []string{"agent_state_changed", "message_processing_started"}},
		{"already running", messages.StatusAwakeRunning, []string{"message_processing_started"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &State{Status: c.status, TurnIndex: 4, PendingNotifications: []messages.SystemNotification{{Kind: "k", Message: "m"}}}
			b := TurnStart(st, testEnv(), m)
			if !slices.Equal(eventTypes(b), c.types) {
				t.Fatalf("turnStart = %v, want %v", eventTypes(b), c.types)
			}
			s := only[messages.MessageProcessingStarted](t, b)
			if s.TurnID != "turn-1" || s.TurnIndex != 5 || len(s.Notifications) != 1 || s.Continuation == nil ||
				!strings.HasPrefix(s.Continuation.Evidence[0], "message:m2") {
				t.Errorf("start = %+v, want turn-1, index 5, carrying the notification", s)
			}
		})
	}
}
