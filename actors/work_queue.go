package actors

import (
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
)

// activateWorkQueue takes up the idle agent's work queue
// (agentstate.WorkActivation); false when nothing was queued.
func (a *agent) activateWorkQueue() bool {
	b, queued := agentstate.WorkActivation(a.state, a.env())
	a.mustCommit(b)
	return queued
}

// workItemTimerFired handles the fire of a work item's timer
// (agentstate.WorkItemTimerFire).
func (a *agent) workItemTimerFired(f timers.Fire, ts agentstate.TimerState) {
	a.mustCommit(agentstate.WorkItemTimerFire(a.state, a.env(), messages.TimerFired{TimerID: f.TimerID, FireID: f.FireID}, ts))
}
