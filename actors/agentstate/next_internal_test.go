package agentstate

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
	"github.com/holon-actors/holon-actors/tools/exec/execspec"
)

// describe is a Step as a table test compares it: its kind, and a
// Record's event types.
func describe(s Step) string {
	switch s := s.(type) {
	case Record:
		r := fmt.Sprint(eventTypes(s.Batch))
		if s.Report {
			r += " report"
		}
		return "record " + r
	case CallModel:
		return "call_model"
	case RunTool:
		return "run_tool " + s.Call.ID + " " + fmt.Sprint(eventTypes(s.Started))
	case SettleLaunches:
		return "settle_launches " + s.Call.ID
	case Idle:
		return "idle"
	}
	return fmt.Sprintf("%T", s)
}

func prompt(id string, p messages.Priority) messages.MessageEnvelope {
	return messages.MessageEnvelope{ID: id, Kind: messages.KindOperatorPrompt, Priority: p,
		AuthorityClass: messages.AuthorityOperatorInstruction}
}

func queued(st *State, ms ...messages.MessageEnvelope) *State {
	for _, m := range ms {
		st.Queue.Push(m)
	}
	return st
}

// upToDateMemory gives st, a state written by hand, the working memory it
// derives, as a turn boundary would have recorded it.
func upToDateMemory(st *State) {
	st.Memory.Current, st.Memory.Revision = DeriveWorkingMemory(st), 1
}

func TestNext(t *testing.T) {
	waiting := &messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingTimer}
	call := messages.ToolCall{ID: "c1", Name: "read_file", Arguments: json.RawMessage(`{}`)}
	round := func(mod func(*TurnState)) *State {
		tr := turnAt("")
		tr.Calls = []messages.ToolCall{call}
		mod(tr)
		return &State{ID: "a1", Status: messages.StatusAwakeRunning, Turn: tr}
	}
	awaiting := func(mod func(*TurnState)) *State {
		return round(func(tr *TurnState) { tr.Done, tr.AwaitingModel = []string{"c1"}, true; mod(tr) })
	}
	critical := []messages.SystemNotification{{Kind: "x", Level: messages.LevelCritical, Message: "now"}}
	cases := []struct {
		name string
		st   *State
		want string
	}{
		{"paused", &State{Status: messages.StatusPaused}, "idle"},
		{"suspended", &State{Status: messages.StatusSuspended, Turn: turnAt("")}, "idle"},
		{"archived", &State{Status: messages.StatusArchived}, "idle"},
		{"idle and settled", &State{Status: messages.StatusAwakeIdle}, "idle"},
		{"queue drained: settles idle", &State{Status: messages.StatusAwakeRunning}, "record [agent_state_changed]"},
		{"settled waiting for a timer that is gone", &State{Status: messages.StatusAwakeIdle, TurnIndex: 2, LastClosure: waiting},
			"record [operator_notification_requested system_notification_queued] report"},
		{"a wake hint", &State{Status: messages.StatusAsleep, PendingWakeHint: &WakeHint{Source: "s", Reason: "r"}},
			"record [message_admitted agent_state_changed]"},
		{"a critical notification while idle", &State{Status: messages.StatusAwakeIdle, PendingNotifications: critical},
			"record [message_admitted]"},
		{"a queued prompt", queued(&State{Status: messages.StatusAwakeIdle}, prompt("m1", messages.PriorityNormal)),
			"record [agent_state_changed message_processing_started]"},
		{"a liveness tick starts and ends in one batch", queued(&State{Status: messages.StatusAwakeRunning},
			messages.MessageEnvelope{ID: "m1", Kind: messages.KindSystemTick, Priority: messages.PriorityNext, SourceRefs: map[string]string{"liveness_only": "true"}}),
			"record [message_processing_started turn_terminal]"},
		{"a tool to run", round(func(*TurnState) {}), "run_tool c1 [tool_call_started]"},
		{"a call cut by a crash", round(func(tr *TurnState) { tr.Started = []string{"c1"} }), "record [tool_executed]"},
		{"a call cut by a crash with launched commands", round(func(tr *TurnState) {
			tr.Started = []string{"c1"}
			tr.Launches = []LaunchRecord{{CallID: "c1", Launch: execspec.Launch{}}}
		}), "settle_launches c1"},
		{"no calls: the turn completes", round(func(tr *TurnState) { tr.Calls = nil }),
			"record [turn_terminal brief_recorded]"},
		{"no calls but a trusted interject", queued(round(func(tr *TurnState) { tr.Calls = nil }), prompt("m2", messages.PriorityInterject)),
			"record [message_processing_started]"},
		{"the model is owed a reply", awaiting(func(*TurnState) {}), "call_model"},
		{"a model retry pending", awaiting(func(tr *TurnState) { tr.Retry = &ModelRetryState{TimerID: "tmr-1"} }), "idle"},
		{"a sleep to settle", awaiting(func(tr *TurnState) { tr.Sleep = &SleepState{Reason: "r"} }),
			"record [turn_terminal brief_recorded agent_slept agent_state_changed]"},
		{"a trusted interject before the round", queued(awaiting(func(*TurnState) {}), prompt("m2", messages.PriorityInterject)),
			"record [message_processing_started]"},
		{"a critical notification before the round", func() *State {
			st := awaiting(func(*TurnState) {})
			st.PendingNotifications = critical
			return st
		}(), "record [message_admitted message_processing_started]"},
		{"over budget: the turn fails", func() *State {
			st := awaiting(func(*TurnState) {})
			st.Budget, st.TotalInputTokens = TokenBudgetState{Set: true, LimitTokens: 100}, 100
			return st
		}(), "record [runtime_error turn_terminal brief_recorded operator_notification_requested]"},
		{"near the budget: a warning first", func() *State {
			st := awaiting(func(*TurnState) {})
			st.Budget, st.TotalInputTokens = TokenBudgetState{Set: true, LimitTokens: 100}, 90
			return st
		}(), "record [operator_notification_requested system_notification_queued] report"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			upToDateMemory(c.st)
			if got := describe(Next(c.st, testEnv())); got != c.want {
				t.Errorf("Next = %s, want %s", got, c.want)
			}
		})
	}
}

// TestNextAncestor: a spent ancestor's budget fails the turn before its
// next round.
func TestNextAncestor(t *testing.T) {
	st := &State{ID: "a1", Status: messages.StatusAwakeRunning, Turn: turnAt("")}
	st.Turn.AwaitingModel = true
	env := testEnv()
	env.Ancestor = &Ancestor{ID: "root", Summary: "spent"}
	s, ok := Next(st, env).(Record)
	if !ok || only[messages.RuntimeError](t, s.Batch).Failure.Code != CodeTokenBudget {
		t.Fatalf("Next = %s, want the turn failed on the ancestor's budget", describe(s))
	}
}

// TestNextLoop drives Next the way the agent does, applying each Record,
// from a queued prompt to the model call, then from the model's reply
// through its tool call to the settled agent: the order of the steps is
// the order of today's side effects.
func TestNextLoop(t *testing.T) {
	env := testEnv()
	env.Tools = func() []llm.ToolSpec { return []llm.ToolSpec{{Name: "read_file"}} }
	st := queued(&State{ID: "a1", Status: messages.StatusAwakeIdle}, prompt("m1", messages.PriorityNormal))
	var steps []string
	run := func() Step {
		for range 20 {
			s := Next(st, env)
			steps = append(steps, describe(s))
			r, ok := s.(Record)
			if !ok {
				return s
			}
			applyAll(t, st, testNow, r.Batch...)
		}
		t.Fatalf("Next never stopped recording: %v", steps)
		return nil
	}
	m, ok := run().(CallModel)
	if !ok || len(m.Request.Tools) != 1 || m.Request.Tools[0].Name != "read_file" {
		t.Fatalf("steps %v end with %+v, want a model call offering read_file", steps, m)
	}
	applyAll(t, st, testNow, messages.ProviderRoundCompleted{TurnID: st.Turn.ID, Round: 1},
		messages.AssistantRoundRecorded{TurnID: st.Turn.ID, Round: 1, Text: "reading",
			ToolCalls: []messages.ToolCall{{ID: "c1", Name: "read_file", Arguments: json.RawMessage(`{}`)}}})
	tool, ok := run().(RunTool)
	if !ok {
		t.Fatalf("steps %v, want a tool to run", steps)
	}
	applyAll(t, st, testNow, tool.Started...)
	applyAll(t, st, testNow, messages.ToolExecuted{TurnID: st.Turn.ID, CallID: "c1", ToolName: "read_file", Status: messages.ToolOK})
	if _, ok := run().(CallModel); !ok {
		t.Fatalf("steps %v, want the model called with the result", steps)
	}
	applyAll(t, st, testNow, messages.ProviderRoundCompleted{TurnID: st.Turn.ID, Round: 2},
		messages.AssistantRoundRecorded{TurnID: st.Turn.ID, Round: 2, Text: "done"})
	if _, ok := run().(Idle); !ok {
		t.Fatalf("steps %v, want the agent idle", steps)
	}
	want := []string{
		"record [agent_state_changed message_processing_started]", "call_model",
		"run_tool c1 [tool_call_started]", "call_model",
		"record [turn_terminal brief_recorded]", "record [working_memory_updated agent_state_changed]", "idle",
	}
	if !slices.Equal(steps, want) {
		t.Errorf("steps = %v, want %v", steps, want)
	}
	if st.Status != messages.StatusAwakeIdle || st.Turn != nil {
		t.Errorf("agent after the loop: status %s, turn %+v; want awake_idle with no turn", st.Status, st.Turn)
	}
}
