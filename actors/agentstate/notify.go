package agentstate

import (
	"fmt"
	"slices"

	"github.com/holon-actors/holon-actors/messages"
)

// notificationOf is the deciding agent's operator notification, addressed
// to its boundary: its parent's for a private child, the primary
// operator's otherwise, and correlated with the turn in flight. A decision
// records it in its Batch; commit then sends it on its way.
func NotificationOf(st *State, env Env, reason, message, suspensionID string) messages.OperatorNotification {
	n := messages.OperatorNotification{
		NotificationID: env.NewID("ntf"), AgentID: env.AgentID, RequestedByAgentID: env.AgentID,
		TargetOperatorBoundary: messages.BoundaryPrimaryOperator, Message: message,
		Summary: messages.NotificationSummary(message), Reason: reason, CreatedAt: env.Now,
		SuspensionID: suspensionID,
	}
	if t := st.Turn; t != nil {
		n.CorrelationID, n.CausationID = t.ID, t.MessageID
	}
	if parent := ParentOf(st); parent != "" {
		n.TargetOperatorBoundary, n.BoundaryAgentID = messages.BoundaryParentSupervisor, parent
	}
	return n
}

// parentOf is the parent whose boundary receives the agent's
// notifications: set for a private child only.
func ParentOf(st *State) string {
	if st.Visibility == messages.VisibilityPrivate && st.ParentAgentID != "" {
		return st.ParentAgentID
	}
	return ""
}

// notifyBoth is a notification for the operator and one for the model at
// its next carrier, in one Batch.
func notifyBoth(n messages.OperatorNotification, sys messages.SystemNotification) Batch {
	return Batch{messages.OperatorNotificationRequested{Notification: n}, messages.SystemNotificationQueued{Notification: sys}}
}

// deliverableOf is the pending system notifications the configured filter
// lets through; a carrier records them, and applying the carrier drains
// the pending set.
func DeliverableOf(st *State, env Env) []messages.SystemNotification {
	var out []messages.SystemNotification
	for _, n := range st.PendingNotifications {
		if env.Cfg.NotificationFilter.Allows(n.Kind) {
			out = append(out, n)
		}
	}
	return out
}

// CriticalPending reports a deliverable critical system notification.
func CriticalPending(st *State, env Env) bool {
	return slices.ContainsFunc(DeliverableOf(st, env), func(n messages.SystemNotification) bool {
		return n.Level == messages.LevelCritical
	})
}

// SystemEnvelope is the message of a system-initiated turn or round that
// carries critical notifications.
func SystemEnvelope(env Env) messages.MessageEnvelope {
	return RuntimeEnvelope(env, messages.KindSystemTick, messages.SystemOrigin("system_notification"), messages.SurfaceRuntimeSystem,
		messages.PriorityNext, "A critical system notification needs your attention now (see the runtime's notifications above).",
		map[string]string{"system_notification": "critical"})
}

// ForceIdleDelivery starts a system-initiated turn for critical
// notifications when the agent has no turn and nothing queued to carry
// them (an asleep agent wakes for it); nil when there is nothing to force.
func ForceIdleDelivery(st *State, env Env) Batch {
	if st.Queue.Len() > 0 || !CriticalPending(st, env) {
		return nil
	}
	return append(Batch{messages.MessageAdmitted{Envelope: SystemEnvelope(env)}}, WakeOnAdmit(st, "critical system notification")...)
}

// CriticalSplice joins a system-initiated message carrying the critical
// notifications to the running turn, before its next model request; nil
// when none is pending.
func CriticalSplice(st *State, env Env) Batch {
	if !CriticalPending(st, env) {
		return nil
	}
	m, t := SystemEnvelope(env), st.Turn
	return Batch{
		messages.MessageAdmitted{Envelope: m},
		messages.MessageProcessingStarted{MessageID: m.ID, TurnID: t.ID, TurnIndex: t.Index, Notifications: DeliverableOf(st, env)},
	}
}

// BatchCarrier returns the notifications the next tool result carries:
// all deliverable ones when it is the last result of its batch, none
// before.
func BatchCarrier(st *State, env Env) []messages.SystemNotification {
	t := st.Turn
	if t == nil || len(t.Done)+1 != len(t.Calls) {
		return nil
	}
	return DeliverableOf(st, env)
}

// ChildNotification records a private child's notification n at this
// agent's boundary, once (nil for one already recorded), and queues a
// system notification so the agent's model learns of it at its next
// carrier. The notification names the child as its requester: this agent
// does not send it on.
func ChildNotification(st *State, env Env, n messages.OperatorNotification) Batch {
	if slices.ContainsFunc(st.Notifications, func(v NotificationView) bool { return v.NotificationID == n.NotificationID }) {
		return nil
	}
	n.AgentID = env.AgentID
	level := messages.LevelWarning
	switch n.Reason {
	case messages.NotifyTurnFailed, messages.NotifyAgentQuarantined, messages.NotifyJournalTailDropped, messages.NotifySuspensionExpired,
		messages.NotifyTokenBudget, messages.NotifyLoopBreaker, messages.NotifyAgentStalled:
		level = messages.LevelError
	}
	return notifyBoth(n, messages.SystemNotification{
		Kind: "child." + n.Reason, Level: level,
		Message: fmt.Sprintf("Your child agent %s notified you: %s%s", n.RequestedByAgentID, n.Summary, childHint(st, n)),
	})
}

// childHint tells the parent how to act on a child's notification through
// its supervision task.
func childHint(st *State, n messages.OperatorNotification) string {
	rec, ok := st.ChildTask(n.RequestedByAgentID)
	if !ok || rec.Terminal() {
		return ""
	}
	if n.Reason == messages.NotifySuspensionRequested || n.Reason == messages.NotifySuspensionReminder {
		return fmt.Sprintf(" (it waits for your answer: send it with TaskInput on task %s)", rec.TaskID)
	}
	return fmt.Sprintf(" (its task: %s)", rec.TaskID)
}

// TailDropped tells the operator and the model that the agent's journal
// lost corrupt records (records of them) from its tail when the store
// opened.
func TailDropped(st *State, env Env, records int) Batch {
	msg := fmt.Sprintf("The journal of agent %s had %d corrupt record(s) at its tail; they were moved aside when the store opened. "+
		"The most recent step(s) before the crash may be missing: check the agent's last work.", env.AgentID, records)
	return notifyBoth(NotificationOf(st, env, messages.NotifyJournalTailDropped, msg, ""),
		messages.SystemNotification{Kind: "journal.tail_dropped", Level: messages.LevelError, Message: msg})
}

// Stall is the watchdog's report of a settled agent whose last closure
// waits for something that can no longer come (ImpossibleWait): the
// operator's agent_stalled notification and a watchdog.stalled one for the
// model, once per closure (applying it records the report). Nil when the
// agent is busy, has nothing to report or reported it already.
func Stall(st *State, env Env) Batch {
	if st.Turn != nil || st.Queue.Len() > 0 || st.TurnIndex == 0 || st.Watchdog.ReportedTurn == st.TurnIndex {
		return nil
	}
	what := st.ImpossibleWait()
	if what == "" {
		return nil
	}
	msg := fmt.Sprintf("Agent %s is stuck: its last turn ended waiting for %s, so nothing will wake it. "+
		"Send it a prompt (holon-actors prompt --agent %s) to tell it how to continue.", env.AgentID, what, env.AgentID)
	return notifyBoth(NotificationOf(st, env, messages.NotifyAgentStalled, msg, ""),
		messages.SystemNotification{Kind: "watchdog.stalled", Level: messages.LevelWarning,
			Message: fmt.Sprintf("Your last turn ended waiting for %s; nothing will wake you for it. "+
				"Decide how to continue when you next run.", what)})
}
