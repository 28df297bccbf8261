package actors

import (
	"context"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// queueNotification asks an agent to queue a system notification; the
// reply is an error or nil once it is durable.
type queueNotification struct{ n messages.SystemNotification }

// Priority implements mailbox.Prioritized: a critical notification must be able
// to overtake queued work.
func (*queueNotification) Priority() messages.Priority { return messages.PriorityNext }

// queueSystem journals a system notification. A critical one forces its
// delivery: a running model request is abandoned (not a provider failure,
// not a retry) and advance starts a system-initiated round with it; an
// idle agent gets a system-initiated turn; during tool execution it rides
// with the tool results.
func (a *agent) queueSystem(n messages.SystemNotification) error {
	if err := a.persist(messages.SystemNotificationQueued{Notification: n}); err != nil {
		return err
	}
	if a.stepping && a.stepKind == stepModel && a.criticalPending() {
		a.deps.Log.Info().Str("agent_id", a.id).Str("kind", n.Kind).Msg("critical system notification: model request abandoned")
		a.abandonStep()
	}
	return nil
}

// criticalPending reports a deliverable critical notification
// (agentstate.CriticalPending).
func (a *agent) criticalPending() bool { return agentstate.CriticalPending(a.state, a.env()) }

// batchCarrier returns the notifications the result of a call carries
// (agentstate.BatchCarrier).
func (a *agent) batchCarrier(messages.ToolCall) []messages.SystemNotification {
	return agentstate.BatchCarrier(a.state, a.env())
}

// QueueSystemNotification queues a subsystem's notification for agent id's
// model. It is durable when this returns; the next carrier delivers it (a
// critical one at once).
func (r *Runtime) QueueSystemNotification(ctx context.Context, id string, n messages.SystemNotification) error {
	if err := n.Validate(); err != nil {
		return err
	}
	res, err := r.ask(ctx, id, &queueNotification{n: n})
	if err != nil {
		return err
	}
	return res.(*notificationQueued).err
}

// notificationQueued answers queueNotification.
type notificationQueued struct{ err error }
