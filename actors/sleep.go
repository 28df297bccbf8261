package actors

import "github.com/holon-actors/holon-actors/actors/agentstate"

// finishSleep settles a turn whose model asked to sleep
// (agentstate.SleptTurn) and arms its timer, if timed.
func (a *agent) finishSleep() { a.mustCommit(agentstate.SleptTurn(a.state, a.env())) }
