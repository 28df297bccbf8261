package agentstate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// TestApproval walks a call through each approval mode: auto runs it,
// deny refuses it, ask suspends the turn with the exact arguments and
// then runs it on yes and refuses it on no or a cancel; each answer is
// durable state, so Next decides the same after a replay.
func TestApproval(t *testing.T) {
	call := messages.ToolCall{ID: "c1", Name: "mcp__gh__delete_repo", Arguments: json.RawMessage(`{"name":"prod"}`)}
	fresh := func() *State {
		tr := turnAt("")
		tr.Calls = []messages.ToolCall{call}
		return &State{ID: "a1", Status: messages.StatusAwakeRunning, Turn: tr}
	}
	envWith := func(mode messages.ApprovalMode) Env {
		env := testEnv()
		env.Approval = func(string) messages.ApprovalMode { return mode }
		return env
	}
	resultOf := func(t *testing.T, b Batch) tools.Envelope {
		t.Helper()
		ex, ok := b[0].(messages.ToolExecuted)
		if !ok {
			t.Fatalf("batch %v does not settle the call", eventTypes(b))
		}
		var e tools.Envelope
		_ = json.Unmarshal(ex.Envelope, &e)
		return e
	}

	t.Run("auto runs", func(t *testing.T) {
		if got := describe(Next(fresh(), envWith(messages.ApprovalAuto))); got != "run_tool c1 [tool_call_started]" {
			t.Fatalf("Next = %s", got)
		}
	})
	t.Run("no policy runs", func(t *testing.T) {
		if got := describe(Next(fresh(), testEnv())); got != "run_tool c1 [tool_call_started]" {
			t.Fatalf("Next = %s", got)
		}
	})
	t.Run("deny refuses with a hint, never started", func(t *testing.T) {
		s := Next(fresh(), envWith(messages.ApprovalDeny))
		r, ok := s.(Record)
		if !ok {
			t.Fatalf("Next = %s", describe(s))
		}
		e := resultOf(t, r.Batch)
		if e.Error == nil || e.Error.Kind != KindToolDenied || !strings.Contains(e.Error.RecoveryHint, "tool_approval") {
			t.Fatalf("denied result = %+v", e.Error)
		}
	})

	answer := func(t *testing.T, value string, cancel bool) (*State, Env) {
		t.Helper()
		st, env := fresh(), envWith(messages.ApprovalAsk)
		s := Next(st, env)
		r, ok := s.(Record)
		if !ok || describe(s) != "record [suspension_requested operator_notification_requested agent_state_changed]" {
			t.Fatalf("ask: Next = %s", describe(s))
		}
		req := r.Batch[0].(messages.SuspensionRequested).Suspension
		if req.ResponseType != messages.ResponseConfirm || !strings.Contains(req.Question, `"name": "prod"`) ||
			req.CallID != "c1" || req.ToolApproval() == nil || string(req.ToolApproval().Arguments) != `{"name":"prod"}` {
			t.Fatalf("approval suspension = %+v", req)
		}
		applyAll(t, st, testNow, r.Batch...)
		if got := describe(Next(st, env)); got != "idle" {
			t.Fatalf("while asked: Next = %s, want idle", got)
		}
		b, _, err := AnswerSuspension(st, env, Answer{SuspensionID: req.ID, Value: json.RawMessage(value), RespondedBy: "op"}, cancel, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := eventTypes(b); strings.Join(got, " ") != "suspension_resumed agent_state_changed" {
			t.Fatalf("answer batch = %v, want the answer and the running status only", got)
		}
		applyAll(t, st, testNow, b...)
		if st.Status != messages.StatusAwakeRunning {
			t.Fatalf("status after the answer = %s", st.Status)
		}
		return st, env
	}
	t.Run("ask then yes runs", func(t *testing.T) {
		st, env := answer(t, `"yes"`, false)
		if got := describe(Next(st, env)); got != "run_tool c1 [tool_call_started]" {
			t.Fatalf("after yes: Next = %s", got)
		}
	})
	t.Run("ask then no refuses", func(t *testing.T) {
		st, env := answer(t, `"no"`, false)
		r, ok := Next(st, env).(Record)
		if !ok {
			t.Fatal("after no: not a record")
		}
		if e := resultOf(t, r.Batch); e.Error == nil || e.Error.Kind != KindToolRefused {
			t.Fatalf("after no: %+v", e.Error)
		}
	})
	t.Run("ask then cancel refuses", func(t *testing.T) {
		st, env := answer(t, ``, true)
		r, ok := Next(st, env).(Record)
		if !ok {
			t.Fatal("after cancel: not a record")
		}
		if e := resultOf(t, r.Batch); e.Error == nil || e.Error.Kind != KindToolRefused {
			t.Fatalf("after cancel: %+v", e.Error)
		}
	})
	t.Run("an answer that is not yes or no changes nothing", func(t *testing.T) {
		st, env := fresh(), envWith(messages.ApprovalAsk)
		r := Next(st, env).(Record)
		applyAll(t, st, testNow, r.Batch...)
		id := r.Batch[0].(messages.SuspensionRequested).Suspension.ID
		if _, _, err := AnswerSuspension(st, env, Answer{SuspensionID: id, Value: json.RawMessage(`"maybe"`)}, false, ""); err == nil {
			t.Fatal("maybe accepted")
		}
		if st.Status != messages.StatusSuspended {
			t.Fatalf("status = %s", st.Status)
		}
	})
}
