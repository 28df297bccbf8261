package actors

import (
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// The agent's decisions (issue 15, step 4). A decision is a function of the
// agent's state and a decideEnv: it reads no clock, mints no ID and touches
// no actor, store or runtime, so a table test runs it in microseconds. It
// returns a batch of event payloads (and, for some, a result); the agent
// commits the batch, which journals it atomically and then performs the
// effects the batch implies (see commit). The decisions live in files named
// decide_<feature>.go; the agent's methods that remain only gather their
// inputs and commit what they decide.

// decideEnv is everything a decision reads besides the agent's state.
type decideEnv struct {
	// AgentID is the deciding agent.
	AgentID string
	// Now is the time of the decision (the agent's clock).
	Now time.Time
	// NewID mints a fresh ID with a prefix (messages.NewID in production).
	NewID func(prefix string) string
	// Cfg is the part of AgentDeps decisions read.
	Cfg decideConfig
}

// decideConfig is the runtime configuration the decisions read.
type decideConfig struct {
	// DefaultTokenBudget is AgentDeps.DefaultTokenBudget.
	DefaultTokenBudget uint64
	// LoopBreakerRepeats is AgentDeps.LoopBreakerRepeats.
	LoopBreakerRepeats int
	// NotificationFilter is AgentDeps.NotificationFilter.
	NotificationFilter messages.NotificationFilter
}

// batch is event payloads a decision wants journaled as one atomic append.
type batch []messages.Payload

// env is the decideEnv of a decision taken now.
func (a *agent) env() decideEnv {
	return decideEnv{AgentID: a.id, Now: a.deps.Clock.Now(), NewID: messages.NewID, Cfg: decideConfig{
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
func (a *agent) commit(b batch) error {
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
func (a *agent) mustCommit(b batch) {
	if len(b) == 0 {
		return
	}
	a.mustPersist(b...)
	a.effects(b)
}

// effects arms the timers and dispatches the own notifications of a
// batch that was just journaled.
func (a *agent) effects(b batch) {
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
