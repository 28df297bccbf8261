package agentstate

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestControl(t *testing.T) {
	busy := func(status messages.AgentStatus) *State {
		return &State{ID: "a1", Status: status, Turn: turnAt("working")}
	}
	idle := func(status messages.AgentStatus) *State { return &State{ID: "a1", Status: status} }
	cases := []struct {
		name   string
		st     *State
		op     ControlOp
		reason string
		err    error
		types  []string
		to     messages.AgentStatus // after the batch
		want   Lifecycle            // its flags
	}{
		{"pause", idle(messages.StatusAwakeIdle), OpPause, "", nil, []string{"agent_state_changed"}, messages.StatusPaused, Lifecycle{Children: true}},
		{"pause a stopped agent", idle(messages.StatusStopped), OpPause, "", ErrAgentStopped, nil, "", Lifecycle{}},
		{"pause twice", idle(messages.StatusPaused), OpPause, "", nil, nil, messages.StatusPaused, Lifecycle{Children: true}},
		{"resume mid-turn", busy(messages.StatusPaused), OpResume, "", nil, []string{"agent_state_changed"}, messages.StatusAwakeRunning, Lifecycle{Rearm: true, Children: true}},
		{"resume a stopped agent", idle(messages.StatusStopped), OpResume, "", nil, []string{"agent_state_changed"}, messages.StatusAwakeIdle, Lifecycle{Rearm: true, Children: true}},
		{"resume a running agent", idle(messages.StatusAwakeIdle), OpResume, "", nil, nil, messages.StatusAwakeIdle, Lifecycle{Children: true}},
		{"stop mid-turn", busy(messages.StatusAwakeRunning), OpStop, "", nil,
			[]string{"runtime_error", "turn_terminal", "brief_recorded", "agent_state_changed"}, messages.StatusStopped,
			Lifecycle{Abandon: true, StopTasks: true, Children: true}},
		{"stop idle", idle(messages.StatusAsleep), OpStop, "", nil, []string{"agent_state_changed"}, messages.StatusStopped, Lifecycle{StopTasks: true, Children: true}},
		{"interrupt", busy(messages.StatusAwakeRunning), OpInterrupt, "wrong file", nil,
			[]string{"runtime_error", "turn_terminal", "brief_recorded"}, messages.StatusAwakeRunning, Lifecycle{Abandon: true}},
		{"interrupt spares the kept message", func() *State { st := busy(messages.StatusAwakeRunning); st.Turn.MessageID = "keep"; return st }(),
			OpInterrupt, "", nil, nil, messages.StatusAwakeRunning, Lifecycle{}},
		{"interrupt idle", idle(messages.StatusAwakeIdle), OpInterrupt, "", nil, nil, messages.StatusAwakeIdle, Lifecycle{}},
		{"wake", idle(messages.StatusAsleep), OpWake, "", nil, []string{"agent_state_changed"}, messages.StatusAwakeIdle, Lifecycle{}},
		{"wake a stopped agent", idle(messages.StatusStopped), OpWake, "", ErrResumeRequired, nil, "", Lifecycle{}},
		{"anything to an archived agent", idle(messages.StatusArchived), OpResume, "", ErrAgentArchived, nil, "", Lifecycle{}},
		{"an unknown command", idle(messages.StatusAwakeIdle), "reboot", "", nil, nil, "", Lifecycle{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := Control(c.st, testEnv(), c.op, c.reason, "keep")
			if c.op == "reboot" {
				if err == nil || !strings.Contains(err.Error(), "use pause, resume, stop, wake or interrupt") || l.Batch != nil {
					t.Fatalf("Control(reboot) = %+v, %v; want a refusal naming the commands", l, err)
				}
				return
			}
			if !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
				t.Fatalf("Control error = %v, want %v", err, c.err)
			}
			if !slices.Equal(eventTypes(l.Batch), c.types) {
				t.Fatalf("Control batch = %v, want %v", eventTypes(l.Batch), c.types)
			}
			if l.Abandon != c.want.Abandon || l.Rearm != c.want.Rearm || l.StopTasks != c.want.StopTasks || l.Children != c.want.Children {
				t.Errorf("Control = %+v, want flags %+v", l, c.want)
			}
			if err != nil {
				return
			}
			for _, p := range l.Batch {
				if rt, ok := p.(messages.RuntimeError); ok && (!OperatorCaused(rt.Failure.Code) ||
					(c.op == OpInterrupt && !strings.Contains(rt.Failure.Summary, "Reason: wrong file."))) {
					t.Errorf("failure = %+v, want an operator-caused one with the reason", rt.Failure)
				}
			}
			applyAll(t, c.st, testNow, l.Batch...)
			if c.st.Status != c.to {
				t.Errorf("status after = %s, want %s", c.st.Status, c.to)
			}
		})
	}
}
