package actors

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

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

// errNoCallInFlight refuses a launch while no tool call runs: the command
// of a call the agent has moved on from must not run.
var errNoCallInFlight = errors.New("no tool call of this agent is running")

// recordLaunch journals a command's launch for the tool call in flight;
// the reply is an error or nil (see agentTasks.RecordLaunch).
type recordLaunch struct{ launch exec.Launch }

func (*recordLaunch) toolsRequest()               {}
func (*recordLaunch) Priority() messages.Priority { return messages.PriorityNext }

func (s *AgentState) applyCommandLaunched(ev messages.Event, p messages.CommandLaunched) error {
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

// launchesOf lists the launches of call callID.
func (t *TurnState) launchesOf(callID string) []exec.Launch {
	var out []exec.Launch
	for _, r := range t.Launches {
		if r.CallID == callID {
			out = append(out, r.Launch)
		}
	}
	return out
}

// inFlightCall is the tool call whose step runs now.
func (a *agent) inFlightCall() (string, bool) {
	t := a.state.Turn
	if t == nil || !a.stepping || a.stepKind != stepTool {
		return "", false
	}
	call, started, ok := t.nextCall()
	return call.ID, ok && started
}

// journalLaunch answers recordLaunch: command_launched is durable before
// the reply, so the command is released only once the journal can find
// it.
func (a *agent) journalLaunch(c actor.Context, m *recordLaunch) {
	callID, ok := a.inFlightCall()
	if !ok {
		c.Respond(errNoCallInFlight)
		return
	}
	data, err := json.Marshal(m.launch)
	if err == nil {
		err = a.persist(messages.CommandLaunched{TurnID: a.state.Turn.ID, CallID: callID, Record: data})
	}
	c.Respond(err)
}

// settleLaunches settles, in a goroutine the agent owns, a call cut by a
// crash whose commands were launched: each is settled (exec.Settle: every
// process of it still running killed, its exit status read) and the call
// recorded with what was found: the real result of a command that ended
// by itself while the runtime was down, or the commands killed.
func (a *agent) settleLaunches(c actor.Context, call messages.ToolCall, launches []exec.Launch) {
	a.gen++
	a.stepping, a.stepKind = true, stepTool
	gen, self, root, ctx := a.gen, c.Self(), c.ActorSystem().Root, a.ctx
	arts, err := a.deps.ToolEnv.artifacts(a.id)
	chars := a.deps.ToolEnv.budget().Chars(0)
	go func() {
		var found []exec.Settlement
		for _, l := range launches {
			s, serr := exec.Settle(ctx, arts, l)
			if serr != nil {
				err = errors.Join(err, serr)
			}
			found = append(found, s)
		}
		if err != nil {
			a.deps.Log.Error().Err(err).Str("agent_id", a.id).Str("call_id", call.ID).Msg("launched commands not all settled")
		}
		root.Send(self, &stepDone{gen: gen, kind: stepTool, call: call, result: exec.Recovered(call.Name, arts, found, chars)})
	}()
}
