package agentstate

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/exec/execspec"
	"github.com/holon-actors/holon-actors/tools/task/taskspec"
)

// applyAll applies payloads as consecutive events after s.LastSeq.
func applyAll(t *testing.T, s *State, at time.Time, ps ...messages.Payload) {
	t.Helper()
	for _, p := range ps {
		ev, err := messages.NewEvent(s.ID, at, p)
		if err != nil {
			t.Fatal(err)
		}
		ev.Seq = s.LastSeq + 1
		if err := s.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
}

func started(id string) messages.TaskStarted {
	rec, _ := json.Marshal(taskspec.CommandRecord{TaskID: id, Pgid: 42, Token: "tok",
		Command: execspec.CommandIdentity{Cmd: "sleep 1", CmdDigest: "sha256:x"}})
	return messages.TaskStarted{TaskID: id, Kind: execspec.TaskKindCommand, Summary: "sleep 1", Record: rec}
}

func finished(id, status string) messages.TaskFinished {
	return messages.TaskFinished{TaskID: id, Status: status, Result: json.RawMessage(`{"task_id":"` + id + `"}`)}
}

// TestTaskRecordLifecycle: task_started opens a record (an open fact that
// survives a snapshot), task_finished settles it once, and a repeated end
// changes nothing.
func TestTaskRecordLifecycle(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	s := &State{ID: "a", Status: messages.StatusAwakeIdle}
	applyAll(t, s, t0, started("task_1"))
	if r := s.Tasks["task_1"]; r == nil || r.Status != taskspec.StatusRunning || r.Command == nil || r.Command.Pgid != 42 {
		t.Fatalf("record after task_started = %+v", r)
	}
	if facts := OpenFacts(s); !slices.Contains(facts, FactActiveTask) {
		t.Fatalf("open facts = %v, want active_task", facts)
	}
	data, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if facts, _ := SnapshotOpenFacts(data); !slices.Contains(facts, FactActiveTask) {
		t.Fatalf("snapshot open facts = %v, want active_task", facts)
	}
	restored, err := RestoreState(data)
	if err != nil || restored.Tasks["task_1"] == nil || restored.Tasks["task_1"].Command.Token != "tok" {
		t.Fatalf("restored tasks = %+v, %v", restored.Tasks, err)
	}

	applyAll(t, s, t0.Add(time.Minute), finished("task_1", taskspec.StatusInterrupted), finished("task_1", taskspec.StatusCompleted))
	r := s.Tasks["task_1"]
	if r.Status != taskspec.StatusInterrupted || !r.UpdatedAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("record after two ends = %+v, want the first (interrupted)", r)
	}
	if facts := OpenFacts(s); slices.Contains(facts, FactActiveTask) {
		t.Fatalf("open facts = %v after the end", facts)
	}
	copies := s.CopyTasks()
	copies[0].Command.Token = "changed"
	if s.Tasks["task_1"].Command.Token != "tok" {
		t.Fatal("copyTasks shares the command record")
	}
}

// TestTerminalTasksAreBounded: the oldest terminal records are forgotten
// beyond terminalLimit; running ones are always kept.
func TestTerminalTasksAreBounded(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	s := &State{ID: "a"}
	applyAll(t, s, t0, started("running"))
	for i := range terminalLimit + 5 {
		id := messages.NewID("task")
		at := t0.Add(time.Duration(i+1) * time.Second)
		applyAll(t, s, at, started(id), finished(id, taskspec.StatusCompleted))
	}
	if len(s.Tasks) != terminalLimit+1 || s.Tasks["running"] == nil {
		t.Fatalf("%d records kept (running kept: %v), want %d terminal + the running one", len(s.Tasks), s.Tasks["running"] != nil, terminalLimit)
	}
	for _, r := range s.Tasks {
		if r.Terminal() && r.CreatedAt.Before(t0.Add(6*time.Second)) {
			t.Fatalf("old record %s (%v) kept", r.TaskID, r.CreatedAt)
		}
	}
}
