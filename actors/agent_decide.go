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
		SystemPrompt:       a.deps.SystemPrompt,
		WorkItemReminder:   a.deps.WorkItemReminder,
		Compaction:         a.deps.Compaction,
		MaxActiveChildren:  a.deps.MaxActiveChildren,
		Timers:             a.deps.Timers,
		Memory:             a.wire.memory.enabled(),
	}, Plans: a.cachedPlan, Ancestor: a.ancestorOver.of(), Tools: a.toolCatalog,
		Guidance: a.guide.g, Approval: a.approvalMode}
}

// commit journals a decision's batch (persist, which then performs the
// effects the batch implies: effects.go); nothing happens for an empty
// one.
func (a *agent) commit(b agentstate.Batch) error {
	if len(b) == 0 {
		return nil
	}
	return a.persist(b...)
}

// mustCommit is commit for steps that cannot go on without their batch
// (mustPersist).
func (a *agent) mustCommit(b agentstate.Batch) {
	if len(b) > 0 {
		a.mustPersist(b...)
	}
}
