package actors_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
)

func TestSettled(t *testing.T) {
	idle := func() actors.AgentState { return actors.AgentState{Status: messages.StatusAwakeIdle} }
	queued := idle()
	queued.Queue.Push(messages.MessageEnvelope{ID: "msg_1", Kind: messages.KindOperatorPrompt, Priority: messages.PriorityNormal})
	tests := []struct {
		name string
		st   actors.AgentState
		want bool
	}{
		{"idle", idle(), true},
		{"asleep", actors.AgentState{Status: messages.StatusAsleep}, true},
		{"stopped", actors.AgentState{Status: messages.StatusStopped}, true},
		{"paused", actors.AgentState{Status: messages.StatusPaused}, true},
		{"running", actors.AgentState{Status: messages.StatusAwakeRunning}, false},
		{"turn in flight", actors.AgentState{Status: messages.StatusAwakeIdle, Turn: &actors.TurnState{}}, false},
		{"message queued", queued, false},
		{"timer pending", actors.AgentState{Status: messages.StatusAsleep, Timers: map[string]actors.TimerState{"t1": {}}}, false},
		{"task running", actors.AgentState{Status: messages.StatusAwakeIdle,
			Tasks: map[string]*actors.TaskRecord{"task_1": {Status: "running"}}}, false},
		{"task ended", actors.AgentState{Status: messages.StatusAwakeIdle,
			Tasks: map[string]*actors.TaskRecord{"task_1": {Status: "completed"}}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := actors.Settled(tt.st); got != tt.want {
				t.Errorf("Settled(%s) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}
