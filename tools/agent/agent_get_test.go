package agent_test

import (
	"context"
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/agent"
	"github.com/holon-actors/holon-actors/tools/task"
)

var update = flag.Bool("update", false, "rewrite the golden receipts in testdata")

type inspector map[string]agent.Summary

func (in inspector) AgentGet(_ context.Context, id string) (agent.Summary, error) {
	if id == "" {
		id = "main"
	}
	if id == "someone_elses_child" {
		return agent.Summary{}, agent.ErrNotVisible
	}
	s, ok := in[id]
	if !ok {
		return agent.Summary{}, agent.ErrUnknownAgent
	}
	return s, nil
}

var mainAgent = agent.Summary{
	Identity: agent.Identity{AgentID: "main", Kind: messages.AgentDefault, Visibility: messages.VisibilityPublic,
		Ownership: messages.OwnershipSelfOwned, ProfilePreset: "public_named"},
	Status: messages.StatusAwakeRunning, QueuedMessages: 2, TurnInFlight: true,
	Workspace:   &agent.Workspace{WorkspaceID: "agent_home", ExecutionRoot: "/home/a/.agents/main"},
	ActiveTasks: []task.Snapshot{{TaskID: "task_1", Kind: "command_task", Status: "running", Summary: "npm run dev"}},
	ActiveChildren: []agent.Child{{ChildAgentID: "child_1", SupervisionTaskID: "task_2", Phase: "running",
		WorkSummary: "triage flaky test"}},
}

func TestAgentGet(t *testing.T) {
	tool := agent.AgentGet(inspector{"main": mainAgent})
	res := tool.Call(context.Background(), json.RawMessage(`{}`))
	var env tools.Envelope
	if err := json.Unmarshal(res.Envelope, &env); err != nil || res.Status != messages.ToolOK {
		t.Fatalf("result = %s", res.Envelope)
	}
	var r agent.GetResult
	if err := json.Unmarshal(env.Result, &r); err != nil || r.Agent.Identity.Ownership != messages.OwnershipSelfOwned {
		t.Fatalf("result = %s", env.Result)
	}
	for _, leak := range []string{"conversation", "prompt", "transcript"} {
		if strings.Contains(string(env.Result), leak) {
			t.Errorf("AgentGet result mentions %s", leak)
		}
	}
	golden(t, "agent_get", res.Receipt)
	for _, id := range []string{"nobody", "someone_elses_child"} {
		res := tool.Call(context.Background(), json.RawMessage(`{"agent_id":"`+id+`"}`))
		if res.Status != messages.ToolError || !strings.Contains(res.Receipt, agent.KindUnknownAgent) {
			t.Errorf("%s: %s", id, res.Receipt)
		}
	}
}

func TestAgentGetBoundInspector(t *testing.T) {
	tool := agent.AgentGet(nil)
	if res := tool.Call(context.Background(), json.RawMessage(`{}`)); res.Status != messages.ToolError {
		t.Fatal("an unbound call succeeded")
	}
	ctx := agent.WithInspector(context.Background(), inspector{"main": mainAgent})
	if res := tool.Call(ctx, json.RawMessage(`{}`)); res.Status != messages.ToolOK {
		t.Fatalf("bound call = %s", res.Receipt)
	}
}

// golden compares got with testdata/receipts/name.txt (-update rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	testkit.CheckFile(t, filepath.Join("testdata", "receipts", name+".txt"), []byte(got), *update)
}
