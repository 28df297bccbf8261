package agentstate

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// LaunchRecord is a command a tool call of the turn in flight launched:
// journaled (command_launched) before the command could run, dropped
// when the call's tool_executed is. A call cut by a crash with launches
// is settled from them (settleLaunches) instead of being reported
// "outcome unknown".
type LaunchRecord struct {
	CallID string      `json:"call_id"`
	Launch exec.Launch `json:"launch"`
}

func (s *State) applyCommandLaunched(ev messages.Event, p messages.CommandLaunched) error {
	if s.Turn == nil || s.Turn.ID != p.TurnID {
		return nil
	}
	var l exec.Launch
	if err := json.Unmarshal(p.Record, &l); err != nil {
		return fmt.Errorf("apply seq %d: launch of call %s: %w", ev.Seq, p.CallID, err)
	}
	s.Turn.Launches = append(s.Turn.Launches, LaunchRecord{CallID: p.CallID, Launch: l})
	return nil
}

// dropLaunches forgets the launches of a call whose result is durable.
func (t *TurnState) dropLaunches(callID string) {
	t.Launches = slices.DeleteFunc(t.Launches, func(r LaunchRecord) bool { return r.CallID == callID })
}

// LaunchesOf lists the launches of call callID.
func (t *TurnState) LaunchesOf(callID string) []exec.Launch {
	var out []exec.Launch
	for _, r := range t.Launches {
		if r.CallID == callID {
			out = append(out, r.Launch)
		}
	}
	return out
}
