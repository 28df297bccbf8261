package actors

import (
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
)

// workItemTimerFired handles the fire of a work item's timer
// (agentstate.WorkItemTimerFire).
func (a *agent) workItemTimerFired(f timers.Fire, ts agentstate.TimerState) {
	a.mustCommit(agentstate.WorkItemTimerFire(a.state, a.env(), messages.TimerFired{TimerID: f.TimerID, FireID: f.FireID}, ts))
}
