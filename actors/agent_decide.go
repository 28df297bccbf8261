package actors

import (
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// The agent's decisions live in agentstate (see agentstate/env.go); the
// agent gathers their environment and commits what they decide.

// env is the agentstate.Env of a decision taken now.
func (a *agent) env() agentstate.Env {
	return agentstate.Env{AgentID: a.id, Now: a.deps.Clock.Now(), NewID: messages.NewID, Cfg: agentstate.Config{
		DefaultTokenBudget: a.deps.DefaultTokenBudget,
		LoopBreakerRepeats: a.deps.LoopBreakerRepeats,
		NotificationFilter: a.deps.NotificationFilter,
	}}
}

// commit journals b, then performs the effects it implies: every timer it
// schedules is armed, and every operator notification this agent itself
// requests is sent on its way. (A child's notification recorded at this
// agent's boundary names the child as its requester and is not sent on.)
// Nothing happens for an empty batch.
func (a *agent) commit(b agentstate.Batch) error {
	if len(b) == 0 {
		return nil
	}
	if err := a.persist(b...); err != nil {
		return err
	}
	a.effects(b)
	return nil
}

// mustCommit is commit for steps that cannot go on without their batch
// (mustPersist).
func (a *agent) mustCommit(b agentstate.Batch) {
	if len(b) == 0 {
		return
	}
	a.mustPersist(b...)
	a.effects(b)
}

// effects arms the timers and dispatches the own notifications of a
// batch that was just journaled.
func (a *agent) effects(b agentstate.Batch) {
	for _, p := range b {
		switch p := p.(type) {
		case messages.TimerScheduled:
			a.armTimer(p.TimerID, p.DueAt)
		case messages.OperatorNotificationRequested:
			if p.Notification.RequestedByAgentID == a.id {
				a.dispatchNotification(p.Notification)
			}
		}
	}
}
