package actors

import (
	"fmt"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
)

// respond answers or cancels a suspension (agentstate.AnswerSuspension), answering
// once the batch is durable.
func (a *agent) respond(m *respondSuspension) *suspensionResult {
	b, resp, err := agentstate.AnswerSuspension(a.state, a.env(), m.answer, m.cancel, m.reason)
	if err == nil && b != nil {
		if err = a.commit(b); err != nil {
			err = fmt.Errorf("answer %s: %w", resp.SuspensionID, err)
		}
	}
	if err != nil {
		return &suspensionResult{err: err}
	}
	return &suspensionResult{response: resp}
}

// suspensionDeadline handles the fire of a suspension's attempt timer
// (agentstate.SuspensionFire).
func (a *agent) suspensionDeadline(f timers.Fire, ts TimerState) {
	a.mustCommit(agentstate.SuspensionFire(a.state, a.env(), messages.TimerFired{TimerID: f.TimerID, FireID: f.FireID}, ts))
}
