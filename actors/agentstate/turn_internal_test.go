package agentstate

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/exec/execspec"
)

// TestLaunchRecordLifecycle: command_launched keeps a launch with its
// call across a snapshot, a launch of another turn is ignored, and the
// call's tool_executed drops it.
func TestLaunchRecordLifecycle(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC)
	s := &State{ID: "a", Status: messages.StatusAwakeRunning,
		Turn: &TurnState{ID: "turn_1", Calls: []messages.ToolCall{{ID: "c1", Name: "ExecCommand"}}, Started: []string{"c1"}}}
	rec, _ := json.Marshal(execspec.Launch{ExecID: "cmd_1", Cmd: "make", Pid: 7, Pgid: 7, Token: "tok"})
	applyAll(t, s, t0,
		messages.CommandLaunched{TurnID: "turn_1", CallID: "c1", Record: rec},
		messages.CommandLaunched{TurnID: "turn_0", CallID: "c9", Record: rec})
	data, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := RestoreState(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := restored.Turn.LaunchesOf("c1"); len(got) != 1 || got[0].Token != "tok" || len(restored.Turn.Launches) != 1 {
		t.Fatalf("launches after a snapshot = %+v, want c1's alone", restored.Turn.Launches)
	}
	applyAll(t, restored, t0, messages.ToolExecuted{TurnID: "turn_1", CallID: "c1", ToolName: "ExecCommand", Status: messages.ToolOK})
	if len(restored.Turn.Launches) != 0 {
		t.Fatalf("launches after the call's result = %+v, want none", restored.Turn.Launches)
	}
}
