package actors

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
//
// The decisions are agentstate.Stall, taken by agentstate.Next when the
// agent settles.
