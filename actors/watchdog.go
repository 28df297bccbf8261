package actors

import "github.com/holon-actors/holon-actors/actors/agentstate"

// The watchdog for impossible waits (issue 8). When an agent settles with
// no turn and nothing queued (after every turn, and after recovery when it
// starts), its last closure may say it is waiting for something that can
// no longer come: a task result with no task running, a timer with none
// pending, an operator's answer with no question open. Such an agent would
// sleep forever, so the watchdog journals one agent_stalled operator
// notification and a watchdog.stalled system notification for the model,
// once per closure: the report is durable (WatchdogState), so a restart
// does not repeat it. Sleeping until woken (awaiting_external_change) is a
// legitimate rest and never reported.

// watchStall reports an impossible wait of the settled agent, once per
// closure.
func (a *agent) watchStall() {
	if err := a.commit(agentstate.Stall(a.state, a.env())); err != nil {
		a.deps.Log.Error().Err(err).Str("agent_id", a.id).Msg("stalled agent not reported")
	}
}
