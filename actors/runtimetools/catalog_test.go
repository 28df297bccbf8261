package runtimetools

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// TestTools: the catalog is every runtime-owned tool once, Sleep first,
// NotifyOperator only when asked for, and Is knows each of them.
func TestTools(t *testing.T) {
	for _, notify := range []bool{false, true} {
		var got []string
		for _, tool := range Tools(notify) {
			got = append(got, tool.Spec().Name)
		}
		if got[0] != agentstate.SleepToolName {
			t.Errorf("Tools(%v) starts with %s, want Sleep", notify, got[0])
		}
		if slices.Contains(got, agentstate.NotifyToolName) != notify {
			t.Errorf("Tools(%v) = %v: NotifyOperator listed %v", notify, got, !notify)
		}
		want := 14 // with the timer tools, UseWorkspace and the memory tools
		if notify {
			want = 15
		}
		if len(got) != want {
			t.Errorf("Tools(%v) has %d tools, want %d", notify, len(got), want)
		}
		for i, n := range got {
			if !Is(n) || slices.Index(got, n) != i {
				t.Errorf("Tools(%v): %s is not runtime-owned or listed twice", notify, n)
			}
		}
	}
	if Is("ExecCommand") {
		t.Error("Is(ExecCommand) = true, want a registry tool")
	}
}

// TestCallsValidate: each Call refuses bad arguments with a tool error and
// echoes good ones with their defaults.
func TestCallsValidate(t *testing.T) {
	tools := map[string]func(json.RawMessage) (messages.ToolStatus, json.RawMessage){}
	for _, tool := range Tools(true) {
		tools[tool.Spec().Name] = func(args json.RawMessage) (messages.ToolStatus, json.RawMessage) {
			res := tool.Call(context.Background(), args)
			return res.Status, res.Envelope
		}
	}
	cases := []struct {
		tool, args string
		ok         bool
	}{
		{agentstate.SleepToolName, `{"duration_ms": 1000}`, true},
		{agentstate.SleepToolName, `{"duration_ms": -1}`, false},
		{agentstate.SleepToolName, `{"duration_ms": 604800001}`, false},
		{agentstate.RequestInputToolName, `{"question": "ship?", "response_type": "confirm"}`, true},
		{agentstate.RequestInputToolName, `{"question": " "}`, false},
		{agentstate.NotifyToolName, `{"message": ""}`, false},
		{SpawnAgentToolName, `{"initial_message": "do it"}`, true},
		{SpawnAgentToolName, `{"preset": "public_named", "workspace_mode": "worktree", "agent_id": "x"}`, false},
		{SpawnAgentToolName, `{"preset": "public_named", "agent_id": "../x"}`, false},
		{agentstate.CreateWorkItemToolName, `{"objective": ""}`, false},
		{agentstate.UpdateWorkItemToolName, `{"work_item_id": "w"}`, false},
	}
	for _, c := range cases {
		status, env := tools[c.tool](json.RawMessage(c.args))
		if (status == messages.ToolOK) != c.ok {
			t.Errorf("%s %s: status %s, want ok=%v (%s)", c.tool, c.args, status, c.ok, env)
		}
	}
	_, env := tools[SpawnAgentToolName](json.RawMessage(`{"initial_message": "do it"}`))
	var echoed struct {
		Result SpawnAgentArgs `json:"result"`
	}
	if err := json.Unmarshal(env, &echoed); err != nil || echoed.Result.Preset != PresetPrivateChild || echoed.Result.WorkspaceMode != WorkspaceInherit {
		t.Errorf("SpawnAgent echo = %s (%v), want the defaults filled in", env, err)
	}
}
