package actors

import (
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
)

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
	st := a.state
	if st.Turn != nil || st.Queue.Len() > 0 || st.TurnIndex == 0 || st.Watchdog.ReportedTurn == st.TurnIndex {
		return
	}
	what := st.ImpossibleWait()
	if what == "" {
		return
	}
	msg := fmt.Sprintf("Agent %s is stuck: its last turn ended waiting for %s, so nothing will wake it. "+
		"Send it a prompt (holon-actors prompt --agent %s) to tell it how to continue.", a.id, what, a.id)
	n := a.operatorNotification(messages.NotifyAgentStalled, msg, "")
	err := a.persist(
		messages.OperatorNotificationRequested{Notification: n},
		messages.SystemNotificationQueued{Notification: messages.SystemNotification{Kind: "watchdog.stalled",
			Level: messages.LevelWarning, Message: fmt.Sprintf("Your last turn ended waiting for %s; nothing will wake you for it. "+
				"Decide how to continue when you next run.", what)}},
	)
	if err != nil {
		a.deps.Log.Error().Err(err).Str("agent_id", a.id).Msg("stalled agent not reported")
		return
	}
	a.dispatchNotification(n)
}
