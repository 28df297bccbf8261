package main

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
	toolexec "github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

// followEvents runs `tail --follow --json` against home and returns a
// function that reads events until one matches.
func followEvents(t *testing.T, home string) func(func(control.StreamEvent) bool) control.StreamEvent {
	t.Helper()
	tail := exec.Command(binary, "--home", home, "--json", "tail", "--follow")
	stdout, err := tail.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := tail.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tail.Process.Kill(); _ = tail.Wait() })
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	return func(want func(control.StreamEvent) bool) control.StreamEvent {
		t.Helper()
		for lines.Scan() {
			var ev control.StreamEvent
			if err := json.Unmarshal(lines.Bytes(), &ev); err != nil {
				t.Fatalf("tail printed %q: %v", lines.Text(), err)
			}
			if want(ev) {
				return ev
			}
		}
		t.Fatalf("tail ended: %v", lines.Err())
		return control.StreamEvent{}
	}
}

func ofKind(k messages.EventType) func(control.StreamEvent) bool {
	return func(ev control.StreamEvent) bool { return ev.Provenance.Kind == k }
}

// TestRunTaskSurvivesSIGKILL: the real binary, SIGKILLed while an agent's
// promoted command runs, leaves the command as an orphan; the next run
// kills it (by its process group and token), reports the task
// interrupted and the agent answers the task_result.
func TestRunTaskSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [
		{"text": "Starting.", "tool_calls": [{"name": "ExecCommand", "arguments": {"cmd": "sleep 30", "yield_time_ms": 50}}]},
		{"text": "It runs."}
	], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	// The turn leaves its task running: --wait returns on its acknowledgement.
	if code, out, errOut := client(t, home, "prompt", "--wait", "run it"); code != 0 || !strings.HasPrefix(out, "It runs.") ||
		!strings.Contains(out, "Still running in the background") {
		t.Fatalf("prompt --wait = %d %q %q", code, out, errOut)
	}
	next := followEvents(t, home)
	var rec task.CommandRecord
	var started messages.TaskStarted
	if err := json.Unmarshal(next(ofKind(messages.EventTaskStarted)).Payload, &started); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(started.Record, &rec); err != nil || rec.Pgid <= 0 {
		t.Fatalf("task record = %+v, %v", rec, err)
	}
	t.Cleanup(func() { toolexec.KillGroup(rec.Pgid) })

	d.kill()
	if !testkit.GroupLive(rec.Pgid) {
		t.Fatalf("the command (group %d) did not outlive the SIGKILLed runtime: nothing to recover", rec.Pgid)
	}

	d = startRun(t, home, "--model", "scripted", "--script", script)
	next = followEvents(t, home)
	var fin messages.TaskFinished
	if err := json.Unmarshal(next(ofKind(messages.EventTaskFinished)).Payload, &fin); err != nil {
		t.Fatal(err)
	}
	if fin.TaskID != rec.TaskID || fin.Status != task.StatusInterrupted {
		t.Fatalf("task_finished = %+v, want %s interrupted", fin, rec.TaskID)
	}
	if testkit.GroupLive(rec.Pgid) {
		t.Fatalf("orphan group %d survived the recovery", rec.Pgid)
	}
	brief := next(func(ev control.StreamEvent) bool {
		return ev.Provenance.Kind == messages.EventBriefRecorded && strings.Contains(ev.Presentation.Body, rec.TaskID)
	})
	if !strings.Contains(brief.Presentation.Body, "interrupted") {
		t.Fatalf("the agent's answer to the task_result = %q", brief.Presentation.Body)
	}
	d.stop()
}
