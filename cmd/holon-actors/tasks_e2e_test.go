package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

// TestTasksList: tasks list shows an agent's running command task with its
// command, age and state; --all shows every active agent's; an unknown
// agent is refused with a hint.
func TestTasksList(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [
		{"text": "Starting.", "tool_calls": [{"name": "ExecCommand", "arguments": {"cmd": "sleep 30", "yield_time_ms": 50}}]},
		{"text": "It runs."}
	], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	if code, out, errOut := client(t, home, "tasks", "list"); code != 0 || strings.TrimSpace(out) != "no tasks" {
		t.Fatalf("tasks list before any = %d %q %q, want no tasks", code, out, errOut)
	}
	if code, out, errOut := client(t, home, "prompt", "--wait", "run it"); code != 0 {
		t.Fatalf("prompt = %d %q %q", code, out, errOut)
	}
	if code, _, errOut := client(t, home, "agents", "create", "other"); code != 0 {
		t.Fatalf("create = %d %s", code, errOut)
	}
	code, out, errOut := client(t, home, "tasks", "list")
	if code != 0 || !strings.Contains(out, "AGE") || !strings.Contains(out, "sleep 30") || !strings.Contains(out, "running") {
		t.Fatalf("tasks list = %d %q %q, want the running sleep", code, out, errOut)
	}
	var list []control.TaskView
	code, out, _ = client(t, home, "--json", "tasks", "list", "--all")
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("tasks list --all = %d %s, want one task", code, out)
	}
	if tk := list[0]; tk.AgentID != "main" || tk.Command != "sleep 30" || tk.Status != "running" || tk.AgeMS < 0 || tk.CreatedAt.IsZero() {
		t.Fatalf("task = %+v, want main's running sleep 30 with its age", tk)
	}
	if code, out, _ := client(t, home, "--agent", "other", "tasks", "list"); code != 0 || strings.TrimSpace(out) != "no tasks" {
		t.Fatalf("tasks list of other = %d %q, want no tasks", code, out)
	}
	if code, _, errOut := client(t, home, "--agent", "ghost", "tasks", "list"); code != exitFailure || !strings.Contains(errOut, `no agent "ghost"`) || !strings.Contains(errOut, "Hint:") {
		t.Fatalf("tasks list of ghost = %d %q, want refused with a hint", code, errOut)
	}
	d.stop()
}
