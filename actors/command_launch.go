package actors

import (
	"encoding/json"
	"errors"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/tasks"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// errNoCallInFlight refuses a launch while no tool call runs: the command
// of a call the agent has moved on from must not run.
var errNoCallInFlight = errors.New("no tool call of this agent is running")

// inFlightCall is the tool call whose step runs now.
func (a *agent) inFlightCall() (string, bool) {
	t := a.state.Turn
	if t == nil || !a.stepping || a.stepKind != stepTool {
		return "", false
	}
	call, started, ok := t.NextCall()
	return call.ID, ok && started
}

// journalLaunch answers tasks.RecordLaunch: command_launched is durable before
// the reply, so the command is released only once the journal can find
// it.
func (a *agent) journalLaunch(c actor.Context, m *tasks.RecordLaunch) {
	callID, ok := a.inFlightCall()
	if !ok {
		c.Respond(errNoCallInFlight)
		return
	}
	data, err := json.Marshal(m.Launch)
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
	arts, err := a.deps.ToolEnv.artifacts(a.id, a.deps.Secrets)
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
