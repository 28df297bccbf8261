package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/task"
)

// effects does what a batch the agent just made durable asks of the world,
// derived from the batch itself so no step can forget one: it arms each
// timer the batch scheduled (a sleep, a suspension's deadline, a work
// item's recheck, a model retry), dispatches each operator notification
// the batch requested, and reports each model round's usage to the
// agent's ancestors. A notification a private child addressed to this
// agent as its supervisor is only recorded here: the child dispatched it.
// A private child's supervision task that starts has its child's actor
// started before Receive returns (startChildren), which holds the actor
// context.
func (a *agent) effects(batch []messages.Payload) {
	for _, p := range batch {
		a.userTimerEffects(p)
		switch p := p.(type) {
		case messages.TimerScheduled:
			a.armTimer(p.TimerID, p.DueAt)
		case messages.ModelRetryScheduled:
			a.armTimer(p.TimerID, p.DueAt)
		case messages.OperatorNotificationRequested:
			if !a.addressedToMe(p.Notification) {
				a.dispatchNotification(p.Notification)
			}
		case messages.ProviderRoundCompleted:
			a.reportUsage(p.TokenUsage)
		case messages.TaskStarted:
			if p.Kind == task.KindChildAgent {
				a.childrenDue = true
			}
		}
	}
}

// addressedToMe reports a child's notification to this agent as its
// supervising parent (childNotified records it).
func (a *agent) addressedToMe(n messages.OperatorNotification) bool {
	return n.TargetOperatorBoundary == messages.BoundaryParentSupervisor && n.BoundaryAgentID == a.id
}

// startChildren starts the actors of the children whose supervision tasks
// the batches of this Receive started (effects).
func (a *agent) startChildren(c actor.Context) {
	if a.childrenDue && a.state != nil {
		a.childrenDue = false
		a.ensureChildren(c)
	}
}
