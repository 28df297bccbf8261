package runtimetools_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/task/taskspec"
	"github.com/holon-actors/holon-actors/tools/worktree/worktreespec"
)

// withChildren is a1 in its turn, supervising n running children.
func withChildren(t *testing.T, n int) *agentstate.State {
	t.Helper()
	st := workState("")
	for i := range n {
		rec, _ := json.Marshal(agentstate.ChildTaskRecord{ChildAgentID: "old-child-" + strconv.Itoa(i), Trust: messages.TrustedSystem, WorkspaceMode: "inherit"})
		ev, err := messages.NewEvent("a1", testNow, messages.TaskStarted{TaskID: "old-task-" + strconv.Itoa(i), Kind: taskspec.KindChildAgent, Record: rec})
		if err != nil {
			t.Fatal(err)
		}
		ev.Seq = uint64(i + 1)
		if err := st.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// spawnResult decodes a SpawnAgent success's result.
func spawnResult(t *testing.T, res tools.Result) runtimetools.SpawnResult {
	t.Helper()
	var env struct {
		Result runtimetools.SpawnResult `json:"result"`
	}
	if res.Status != messages.ToolOK || json.Unmarshal(res.Envelope, &env) != nil {
		t.Fatalf("SpawnAgent = %s %s, want a success", res.Status, res.Receipt)
	}
	return env.Result
}

// childStarted checks that batch is exactly the task_started of child
// child-1 through task task-1, for the turn's message m1, in mode.
func childStarted(t *testing.T, batch agentstate.Batch, mode string) agentstate.ChildTaskRecord {
	t.Helper()
	if len(batch) != 1 {
		t.Fatalf("batch = %d payloads, want one task_started", len(batch))
	}
	s, ok := batch[0].(messages.TaskStarted)
	if !ok || s.TaskID != "task-1" || s.Kind != taskspec.KindChildAgent || s.ParentMessageID != "m1" || s.Summary != "Write the report." {
		t.Fatalf("batch[0] = %#v", batch[0])
	}
	var rec agentstate.ChildTaskRecord
	if err := json.Unmarshal(s.Record, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.ChildAgentID != "child-1" || rec.Prompt != "Write the report." || rec.Trust != messages.TrustedSystem || rec.WorkspaceMode != mode {
		t.Fatalf("child task record = %+v", rec)
	}
	return rec
}

func TestSpawnAgentDecision(t *testing.T) {
	private := call(runtimetools.SpawnAgentToolName, map[string]any{"initial_message": "Write the report."})
	worktree := call(runtimetools.SpawnAgentToolName, map[string]any{"initial_message": "Write the report.", "workspace_mode": "worktree"})
	public := call(runtimetools.SpawnAgentToolName, map[string]any{"preset": "public_named", "agent_id": "researcher", "initial_message": "Find it."})
	planned := worktreespec.Info{RepoRoot: "/repo", Path: "/h/worktrees/task-1", Branch: "holon/task-1",
		BaseCommit: "0123456789abcdef0123", Subdir: "sub", CleanupStatus: worktreespec.StatusActive}
	cases := []struct {
		name     string
		st       *agentstate.State
		max      int
		call     messages.ToolCall
		check    func(t *testing.T, d runtimetools.Decision)
		wantFail string // the failure's kind, "" for a success
	}{
		{name: "a private child is decided at once, with its supervision task", st: workState(""), call: private,
			check: func(t *testing.T, d runtimetools.Decision) {
				if d.Worktree != nil || d.Create != nil || d.Plan != nil {
					t.Fatal("a private child in the parent's workspace waits for I/O")
				}
				r := spawnResult(t, d.Result)
				if r.ChildAgentID != "child-1" || r.SupervisionTaskID != "task-1" || r.TaskHandle.Kind != taskspec.KindChildAgent ||
					r.ChildSupervision.WorkspaceMode != "inherit" || r.ChildSupervision.ParentAgentID != "a1" {
					t.Fatalf("result = %+v", r)
				}
				childStarted(t, d.Batch, "inherit")
			}},
		{name: "the limit of running children refuses another", st: withChildren(t, 2), max: 2, call: private, wantFail: "too_many_children"},
		{name: "under the limit it spawns", st: withChildren(t, 1), max: 2, call: private,
			check: func(t *testing.T, d runtimetools.Decision) { childStarted(t, d.Batch, "inherit") }},
		{name: "the default limit applies when none is configured", st: withChildren(t, runtimetools.DefaultMaxActiveChildren), call: worktree, wantFail: "too_many_children"},
		{name: "a worktree child waits for its worktree's planning", st: workState(""), call: worktree,
			check: func(t *testing.T, d runtimetools.Decision) {
				w := d.Worktree
				if w == nil || w.TaskID != "task-1" || w.Branch != "holon/task-1" || d.Result.Status != "" || len(d.Batch) != 0 {
					t.Fatalf("decision = %+v, want the worktree of task-1 to plan first", d)
				}
				res, batch := w.Finish(planned)
				r := spawnResult(t, res)
				if r.ChildSupervision.WorkspaceMode != "worktree" || r.ChildSupervision.Worktree.Path != planned.Path {
					t.Fatalf("result supervision = %+v", r.ChildSupervision)
				}
				if !strings.Contains(res.Receipt, "/h/worktrees/task-1/sub on branch holon/task-1, made from commit 0123456789ab.") {
					t.Errorf("receipt = %q", res.Receipt)
				}
				if rec := childStarted(t, batch, "worktree"); rec.Worktree == nil || !reflect.DeepEqual(*rec.Worktree, planned) {
					t.Errorf("the task's worktree = %+v, want %+v", rec.Worktree, planned)
				}
			}},
		{name: "a public agent waits for its journal", st: workState(""), call: public,
			check: func(t *testing.T, d runtimetools.Decision) {
				c := d.Create
				if c == nil || c.AgentID != "researcher" || d.Result.Status != "" || len(d.Batch) != 0 {
					t.Fatalf("decision = %+v, want researcher's journal to be created first", d)
				}
				if len(c.Events) != 3 {
					t.Fatalf("the new agent's first events = %d, want created, awake, its bootstrap message", len(c.Events))
				}
				created := c.Events[0].(messages.AgentCreated)
				msg := c.Events[2].(messages.MessageAdmitted).Envelope
				if created.ParentAgentID != "a1" || created.Visibility != messages.VisibilityPublic || msg.ID != "msg-1" || msg.AgentID != "researcher" ||
					msg.Body.Text != "Find it." || !msg.CreatedAt.Equal(testNow) || msg.AuthorityClass == messages.AuthorityOperatorInstruction {
					t.Fatalf("created %+v, message %+v", created, msg)
				}
				if r := spawnResult(t, c.Finish(false, nil)); r.AgentID != "researcher" || r.ChildAgentID != "" {
					t.Errorf("result = %+v", r)
				}
				for kind, err := range map[string]error{"agent_exists": errors.New("exists"), "spawn_failed": errors.New("disk full")} {
					res := c.Finish(kind == "agent_exists", err)
					if res.Status == messages.ToolOK || !strings.Contains(string(res.Envelope), kind) {
						t.Errorf("Finish for %s = %s %s", kind, res.Status, res.Envelope)
					}
				}
			}},
		{name: "a public agent without a bootstrap message gets none", st: workState(""),
			call: call(runtimetools.SpawnAgentToolName, map[string]any{"preset": "public_named", "agent_id": "quiet"}),
			check: func(t *testing.T, d runtimetools.Decision) {
				if d.Create == nil || len(d.Create.Events) != 2 {
					t.Fatalf("decision = %+v, want created and awake only", d.Create)
				}
			}},
		{name: "a public agent is not bound by the children's limit", st: withChildren(t, 1), max: 1, call: public,
			check: func(t *testing.T, d runtimetools.Decision) {
				if d.Create == nil {
					t.Fatal("refused a public agent for the children's limit")
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if valid := callTool(t, tc.call); valid.Status != messages.ToolOK {
				t.Fatalf("the tool refused the arguments: %s", valid.Receipt)
			}
			env := testEnv()
			env.Cfg.MaxActiveChildren = tc.max
			d := runtimetools.Decisions[runtimetools.SpawnAgentToolName](tc.st, env, tc.call)
			if tc.wantFail != "" {
				if d.Result.Status == messages.ToolOK || !strings.Contains(string(d.Result.Envelope), tc.wantFail) || len(d.Batch) != 0 || d.Worktree != nil {
					t.Fatalf("decision = %s %s, batch %d, want a %s failure and nothing else", d.Result.Status, d.Result.Envelope, len(d.Batch), tc.wantFail)
				}
				return
			}
			tc.check(t, d)
		})
	}
}
