package actors

import (
	"context"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// Notifier delivers operator notifications to an external operator surface
// (notify.Webhook). Deliver reports every step through report and returns
// the final status; it retries on its own.
type Notifier interface {
	Deliver(ctx context.Context, n messages.OperatorNotification, report func(messages.OperatorNotificationDelivery)) messages.DeliveryStatus
}

// childNotification carries a private child's operator notification to
// its parent, whose boundary receives it.
type childNotification struct{ n messages.OperatorNotification }

// deliveryReported carries one delivery step back to the agent that
// recorded the notification, to be journaled.
type deliveryReported struct {
	d messages.OperatorNotificationDelivery
}

// tailDropped tells an agent that the store dropped corrupt records from
// the tail of its journal when it opened.
type tailDropped struct{ records int }

func (*childNotification) Priority() messages.Priority { return messages.PriorityNext }
func (*deliveryReported) Priority() messages.Priority  { return messages.PriorityBackground }
func (*tailDropped) Priority() messages.Priority       { return messages.PriorityNext }

// newNotification is agent id's notification to the primary operator.
func newNotification(id, reason, message string, at time.Time) messages.OperatorNotification {
	return messages.OperatorNotification{
		NotificationID: messages.NewID("ntf"), AgentID: id, RequestedByAgentID: id,
		TargetOperatorBoundary: messages.BoundaryPrimaryOperator, Message: message,
		Summary: messages.NotificationSummary(message), Reason: reason, CreatedAt: at,
	}
}

// supervisingParent is the parent whose boundary receives this agent's
// notifications (agentstate.ParentOf).
func (a *agent) supervisingParent() string { return agentstate.ParentOf(a.state) }

// dispatchNotification sends a recorded notification on its way: to the
// parent agent for a private child, to the configured notifier otherwise.
func (a *agent) dispatchNotification(n messages.OperatorNotification) {
	rt := a.wire.host
	if rt == nil {
		return
	}
	n.Message, n.Summary = a.deps.Secrets.Redact(n.Message), a.deps.Secrets.Redact(n.Summary) // it leaves the journal's reach
	if n.TargetOperatorBoundary == messages.BoundaryParentSupervisor {
		rt.Forward(n.BoundaryAgentID, &childNotification{n: n})
		return
	}
	rt.Deliver(a.id, n)
}

// childNotified records a private child's notification at this agent's
// boundary (agentstate.ChildNotification).
func (a *agent) childNotified(m *childNotification) {
	a.mustCommit(agentstate.ChildNotification(a.state, a.env(), m.n))
}

// deliveryStep journals one delivery step.
func (a *agent) deliveryStep(m *deliveryReported) {
	if err := a.persist(m.d); err != nil {
		a.deps.Log.Error().Err(err).Str("agent_id", a.id).Str("notification_id", m.d.NotificationID).Msg("delivery status not journaled")
	}
}

// journalTailDropped tells the operator and the model that the agent's
// journal lost its corrupt tail (agentstate.TailDropped).
func (a *agent) journalTailDropped(m *tailDropped) {
	a.mustCommit(agentstate.TailDropped(a.state, a.env(), m.records))
}

// redeliverNotifications resumes the external delivery of notifications
// whose delivery had not settled when the runtime stopped.
func (a *agent) redeliverNotifications() {
	rt := a.wire.host
	if rt == nil || a.deps.Notifier == nil {
		return
	}
	for _, v := range a.state.Notifications {
		if v.TargetOperatorBoundary != messages.BoundaryPrimaryOperator || v.AgentID != a.id {
			continue
		}
		if v.Delivery == nil || v.Delivery.Status == messages.DeliveryRetrying {
			rt.Deliver(a.id, v.OperatorNotification)
		}
	}
}
