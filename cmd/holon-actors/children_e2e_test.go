package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
	toolexec "github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

// delegationScript: main spawns two workers in one round; each worker
// starts a background command and ends its turn; the command's end (or its
// interruption) gives the worker a last turn, after which it settles.
const delegationScript = `{
  "steps": [
    {"tool_calls": [
      {"name": "SpawnAgent", "arguments": {"initial_message": "worker: job A"}},
      {"name": "SpawnAgent", "arguments": {"initial_message": "worker: job B"}}]},
    {"text": "Delegated."}],
  "then": "echo",
  "roles": {"worker": {"steps": [
    {"tool_calls": [{"name": "ExecCommand", "arguments": {"cmd": "sleep 30", "yield_time_ms": 10}}]},
    {"text": "started"},
    {"text": "worker finished"}]}}
}`

// eventsOf returns agent id's events of type typ.
func eventsOf(t *testing.T, c *control.Client, id string, typ messages.EventType) []control.StreamEvent {
	t.Helper()
	var out []control.StreamEvent
	after := uint64(0)
	for {
		page, err := c.Events(context.Background(), id, after, 500)
		if err != nil {
			t.Fatalf("events of %s: %v", id, err)
		}
		for _, ev := range page.Events {
			if ev.Provenance.Kind == typ {
				out = append(out, ev)
			}
		}
		if len(page.Events) == 0 || page.NextAfter >= page.HighestSeq {
			return out
		}
		after = page.NextAfter
	}
}

// waitEvents polls (another process) until agent id has n events of typ.
func waitEvents(t *testing.T, c *control.Client, id string, typ messages.EventType, n int) []control.StreamEvent {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		if evs := eventsOf(t, c, id, typ); len(evs) >= n {
			return evs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s has fewer than %d %s events after %s", id, n, typ, e2eWait)
		}
		time.Sleep(20 * time.Millisecond) // polling another process
	}
}

// TestDelegationSurvivesSIGKILL: the daemon is SIGKILLed while two private
// children each run a background command. The restarted daemon recovers
// the parent, which re-creates its children; their orphaned commands are
// killed and reported as interrupted, the children finish and settle, and
// the parent records exactly one end per child. No command survives.
func TestDelegationSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, delegationScript)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
	defer c.Close()

	if code, _, errOut := client(t, home, "prompt", "delegate the jobs"); code != 0 {
		t.Fatalf("prompt = %d %s", code, errOut)
	}
	var children []string
	for _, ev := range waitEvents(t, c, "main", messages.EventTaskStarted, 2) {
		var ts messages.TaskStarted
		var rec agentstate.ChildTaskRecord
		if json.Unmarshal(ev.Payload, &ts) != nil || ts.Kind != task.KindChildAgent || json.Unmarshal(ts.Record, &rec) != nil {
			t.Fatalf("task_started = %s", ev.Payload)
		}
		children = append(children, rec.ChildAgentID)
	}
	var groups []int
	for _, id := range children {
		ev := waitEvents(t, c, id, messages.EventTaskStarted, 1)[0]
		var ts messages.TaskStarted
		var rec task.CommandRecord
		if json.Unmarshal(ev.Payload, &ts) != nil || json.Unmarshal(ts.Record, &rec) != nil || rec.Pgid <= 0 {
			t.Fatalf("child command task_started = %s", ev.Payload)
		}
		groups = append(groups, rec.Pgid)
		t.Cleanup(func() { toolexec.KillGroup(rec.Pgid) })
	}
	if listed, err := c.Agents(context.Background()); err != nil || len(listed) != 1 || listed[0].ID != "main" {
		t.Fatalf("agents = %+v, %v; private children are not listed", listed, err)
	}
	code, out, errOut := client(t, home, "--json", "agents", "children", "main")
	var kids control.ChildList
	if code != 0 || json.Unmarshal([]byte(out), &kids) != nil || len(kids.Children) != 2 {
		t.Fatalf("agents children = %d %s %s", code, out, errOut)
	}
	for _, k := range kids.Children {
		if k.TaskStatus != task.StatusRunning || k.Observability == nil || k.Observability.Phase != task.PhaseBlocked ||
			k.Supervision.ParentAgentID != "main" {
			t.Fatalf("child view = %+v (%+v)", k, k.Observability)
		}
	}
	if code, out, _ := client(t, home, "agents", "list"); code != 0 || !strings.Contains(out, "CHILDREN") || strings.Contains(out, children[0]) {
		t.Fatalf("agents list = %d %q; want main with its children counted, the children unlisted", code, out)
	}
	if code, out, _ := client(t, home, "status", "main"); code != 0 || !strings.Contains(out, children[0]) || !strings.Contains(out, children[1]) {
		t.Fatalf("status main = %d %q; want its active children", code, out)
	}
	if code, out, _ := client(t, home, "status", children[0]); code != 0 || !strings.Contains(out, "supervised by") {
		t.Fatalf("status of a child = %d %q", code, out)
	}

	d.kill()
	d = startRun(t, home, "--model", "scripted", "--script", script)
	ends := waitEvents(t, c, "main", messages.EventTaskFinished, 2)
	for _, id := range children {
		deadline := time.Now().Add(e2eWait)
		for {
			st, err := c.Status(context.Background(), id)
			if err == nil && st.Status == messages.StatusArchived {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("child %s = %+v, %v; want archived", id, st, err)
			}
			time.Sleep(20 * time.Millisecond) // polling another process
		}
	}
	for _, ev := range ends {
		var f messages.TaskFinished
		if json.Unmarshal(ev.Payload, &f) != nil || f.Status != task.StatusCompleted {
			t.Fatalf("child task end = %s, want completed", ev.Payload)
		}
	}
	if code, out, _ := client(t, home, "agents", "children", "main"); code != 0 || !strings.Contains(out, "no running child") {
		t.Fatalf("agents children after the work = %d %q", code, out)
	}
	if code, out, _ := client(t, home, "agents", "children", "--all", "main"); code != 0 || strings.Count(out, "completed") != 2 {
		t.Fatalf("agents children --all = %d %q", code, out)
	}
	if n := len(eventsOf(t, c, "main", messages.EventTaskFinished)); n != 2 {
		t.Fatalf("main recorded %d child task ends, want exactly 2", n)
	}
	for _, g := range groups {
		if testkit.GroupLive(g) {
			t.Fatalf("a child's command (group %d) survived the crash and recovery", g)
		}
	}
	d.stop()
}

// TestOnceWithAChild: once runs until the run's child has rejoined, and
// its token usage includes the child's.
func TestOnceWithAChild(t *testing.T) {
	t.Parallel()
	script := writeScript(t, `{"steps": [
		{"tool_calls": [{"name": "SpawnAgent", "arguments": {"initial_message": "worker: compute 6*7"}}]},
		{"text": "Delegated."},
		{"text": "The worker says 42."}],
	  "roles": {"worker": {"steps": [{"text": "42 is the answer"}]}}}`)
	code, out, errOut := client(t, t.TempDir(), "--json", "once", "--model", "scripted", "--script", script, "delegate")
	var res onceResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Status != "completed" || res.FinalText != "The worker says 42." {
		t.Fatalf("once = %d %s %s", code, out, errOut)
	}
	// The scripted model counts (len+3)/4 output tokens: 0+3+5 for the
	// parent, 4 for the child.
	if res.TokenUsage.OutputTokens != 12 || res.TokenUsage.TotalTokens != 12 {
		t.Fatalf("token usage = %+v, want the parent's 8 and the child's 4", res.TokenUsage)
	}
}
