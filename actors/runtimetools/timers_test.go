package runtimetools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

func timerEnv() agentstate.Env {
	n := 0
	return agentstate.Env{AgentID: "a1", Now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC),
		NewID: func(p string) string { n++; return fmt.Sprintf("%s-%d", p, n) }}
}

// TestTimerTools: CreateTimer journals the calling agent's timer created by
// "agent"; a refusal journals nothing and says what to fix; ListTimers
// lists only the caller's timers; CancelTimer of an unknown id is refused.
func TestTimerTools(t *testing.T) {
	st := &agentstate.State{ID: "a1"}
	env := timerEnv()
	d := CreateTimer(st, env, CreateTimerArgs{Message: "Check the deploy.", After: "15m"})
	if d.Result.Status != messages.ToolOK || len(d.Batch) != 1 {
		t.Fatalf("CreateTimer = %+v", d)
	}
	c := d.Batch[0].(messages.TimerCreated)
	if c.Record.CreatedBy != "agent" || !c.DueAt.Equal(env.Now.Add(15*time.Minute)) {
		t.Fatalf("created %+v", c)
	}
	ev, _ := messages.NewEvent("a1", env.Now, c)
	ev.Seq = 1
	if err := st.Apply(ev); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		args CreateTimerArgs
		kind string
	}{
		{CreateTimerArgs{Message: "x", Every: "5s"}, tools.KindInvalidToolInput},
		{CreateTimerArgs{Message: "x", Cron: "0 9 * * *"}, tools.KindInvalidToolInput},
		{CreateTimerArgs{Message: "x", At: "2020-01-01T00:00:00Z"}, tools.KindInvalidToolInput},
	} {
		d := CreateTimer(st, env, tc.args)
		var te tools.ToolError
		_ = json.Unmarshal(errorOf(t, d.Result), &te)
		if d.Result.Status != messages.ToolError || d.Batch != nil || te.Kind != tc.kind || te.RecoveryHint == "" {
			t.Errorf("CreateTimer(%+v) = %s %+v, batch %v; want a %s refusal with a hint and nothing journaled", tc.args, d.Result.Status, te, d.Batch, tc.kind)
		}
	}
	env.Cfg.Timers.MaxPerAgent = 1
	if d := CreateTimer(st, env, CreateTimerArgs{Message: "x", After: "1h"}); d.Batch != nil || !strings.Contains(string(d.Result.Envelope), KindTimerLimit) {
		t.Errorf("CreateTimer over the limit = %s", d.Result.Envelope)
	}

	if d := ListTimers(st, env, ListTimersArgs{}); !strings.Contains(string(d.Result.Envelope), c.Record.TimerID) {
		t.Errorf("ListTimers = %s, want the timer", d.Result.Envelope)
	}
	other := &agentstate.State{ID: "a2"}
	if d := ListTimers(other, env, ListTimersArgs{}); strings.Contains(string(d.Result.Envelope), c.Record.TimerID) {
		t.Errorf("another agent's ListTimers = %s, want none of a1's", d.Result.Envelope)
	}
	if d := CancelTimer(other, env, CancelTimerArgs{TimerID: c.Record.TimerID}); d.Batch != nil || !strings.Contains(string(d.Result.Envelope), KindTimerNotFound) {
		t.Errorf("another agent cancelling a1's timer = %s, want timer_not_found", d.Result.Envelope)
	}
	if d := CancelTimer(st, env, CancelTimerArgs{TimerID: c.Record.TimerID}); len(d.Batch) != 1 || d.Result.Status != messages.ToolOK {
		t.Errorf("CancelTimer = %+v", d)
	}
}

// TestAgentCannotCancelOperatorsTimer: the agent's CancelTimer of a timer
// its operator created is refused, says who may cancel it, and journals
// nothing; the agent's own timer it still cancels.
func TestAgentCannotCancelOperatorsTimer(t *testing.T) {
	st := &agentstate.State{ID: "a1"}
	env := timerEnv()
	op, err := agentstate.CreateTimer(st, env, "operator", agentstate.TimerRequest{Message: "Post the daily report.", Cron: "0 9 * * *", Zone: "Europe/Paris"})
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := messages.NewEvent("a1", env.Now, op)
	ev.Seq = 1
	if err := st.Apply(ev); err != nil {
		t.Fatal(err)
	}
	d := CancelTimer(st, env, CancelTimerArgs{TimerID: op.Record.TimerID, Reason: "the operator says so"})
	var te tools.ToolError
	_ = json.Unmarshal(errorOf(t, d.Result), &te)
	if d.Batch != nil || te.Kind != KindTimerOperators || !strings.Contains(te.Message, "operator") || te.RecoveryHint == "" {
		t.Fatalf("the agent cancelling the operator's timer = %s, batch %v; want a timer_operators refusal, nothing journaled", d.Result.Envelope, d.Batch)
	}
	if _, ok := st.UserTimers[op.Record.TimerID]; !ok {
		t.Fatal("the operator's timer is gone")
	}
}

// errorOf is the error object of a failure result's envelope.
func errorOf(t *testing.T, r tools.Result) json.RawMessage {
	t.Helper()
	var env struct {
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(r.Envelope, &env); err != nil {
		t.Fatalf("envelope %s: %v", r.Envelope, err)
	}
	return env.Error
}
