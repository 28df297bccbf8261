package actors

import (
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// The agent's decisions live in agentstate (see agentstate/env.go); the
// agent gathers their environment and commits what they decide.

// env is the agentstate.Env of a decision taken now.
func (a *agent) env() agentstate.Env {
	if a.reads == nil {
		a.reads = &envReads{plans: a.cachedPlan, tools: a.toolCatalog, approval: a.approvalMode}
	}
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
	}, Plans: a.reads.plans, Ancestor: a.ancestorOver.of(), Tools: a.reads.tools,
		Guidance: a.guide.g, Approval: a.reads.approval}
}

// envReads are the agent's method values an Env carries: a method value
// is a closure allocated where it is taken, and an agent takes about ten
// Envs a turn.
type envReads struct {
	plans    func(itemID string) *PlanArtifact
	tools    func() []providers.ToolSpec
	approval func(tool string) messages.ApprovalMode
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
