package actors

import (
	"context"
	"slices"

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

// deliverable is the pending notifications the filter lets through
// (agentstate.DeliverableOf).
func (a *agent) deliverable() []messages.SystemNotification {
	return agentstate.DeliverableOf(a.state, a.env())
}

// criticalPending reports a deliverable critical notification.
func (a *agent) criticalPending() bool {
	return slices.ContainsFunc(a.deliverable(), func(n messages.SystemNotification) bool {
		return n.Level == messages.LevelCritical
	})
}

// systemEnvelope is the message of a system-initiated turn or round that
// carries critical notifications.
func (a *agent) systemEnvelope() messages.MessageEnvelope {
	return a.runtimeEnvelope(messages.KindSystemTick, messages.SystemOrigin("system_notification"), messages.SurfaceRuntimeSystem,
		messages.PriorityNext, "A critical system notification needs your attention now (see the runtime's notifications above).",
		map[string]string{"system_notification": "critical"})
}

// forceIdleDelivery starts a system-initiated turn for critical
// notifications when the agent has no turn and nothing queued to carry
// them; false when there is nothing to force.
func (a *agent) forceIdleDelivery() bool {
	if a.state.Queue.Len() > 0 || !a.criticalPending() {
		return false
	}
	a.mustCommit(append(agentstate.Batch{messages.MessageAdmitted{Envelope: a.systemEnvelope()}},
		agentstate.WakeOnAdmit(a.state, "critical system notification")...))
	return true
}

// spliceCritical joins a system-initiated message carrying critical
// notifications to the running turn, before its next model request.
func (a *agent) spliceCritical() {
	if !a.criticalPending() {
		return
	}
	env, t := a.systemEnvelope(), a.state.Turn
	a.mustPersist(
		messages.MessageAdmitted{Envelope: env},
		messages.MessageProcessingStarted{MessageID: env.ID, TurnID: t.ID, TurnIndex: t.Index, Notifications: a.deliverable()},
	)
}

// batchCarrier returns the notifications the result of call carries: all
// deliverable ones when it is the last result of its batch, none before.
func (a *agent) batchCarrier(call messages.ToolCall) []messages.SystemNotification {
	t := a.state.Turn
	if t == nil || len(t.Done)+1 != len(t.Calls) {
		return nil
	}
	return a.deliverable()
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
