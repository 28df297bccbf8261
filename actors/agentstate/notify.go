package agentstate

import (
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
