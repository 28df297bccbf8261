package actors

import (
	"context"
	"slices"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// Token budgets (issue 8, "Budgets and loop breakers").
//
// An agent's spend is the input plus output tokens of its own model rounds
// and of every private descendant's, counted from the agent's creation or
// from the last token_budget_set with reset_spend. Its limit is the one an
// operator set with token_budget_set (0: unlimited), or, for an agent that
// never had one set, the runtime's AgentDeps.DefaultTokenBudget (read at
// each check, so a changed default applies to such agents at the next
// start of the runtime). Before every model round the agent compares the
// two: at or over the limit the turn fails with code
// token_budget_exhausted, so a budget is overshot by at most one model
// round (the round that crossed it).
//
// A private child reports its lifetime total to its parent after every
// model round and when it starts; the parent journals child_usage_recorded
// with the growth over the child's last total (a repeated or late report
// adds nothing) and, if it is a private child itself, reports its own new
// total upward, so every ancestor counts all its descendants. A child
// checks its own budget only: an ancestor over its budget stops its own
// rounds, while its descendants run on until their own budgets stop them.

// BudgetWarnPercent is the share of its token budget after which an agent
// warns its operator (and its model) once.
const BudgetWarnPercent = agentstate.BudgetWarnPercent

// SetTokenBudget asks an agent to record a token budget; the reply is
// *SetTokenBudgetResult. The next model round is checked against it; a
// round in flight finishes.
type SetTokenBudget struct {
	// LimitTokens is the new limit; 0 means unlimited.
	LimitTokens uint64
	// ResetSpend zeroes the spend: the limit counts from now on.
	ResetSpend bool
	Reason     string
}

// Priority implements mailbox.Prioritized: like lifecycle commands, before work.
func (*SetTokenBudget) Priority() messages.Priority { return messages.PriorityInterject }

// SetTokenBudgetResult answers SetTokenBudget with the agent's info after it.
type SetTokenBudgetResult struct {
	Info agentstate.AgentInfo
	Err  error
}

// setTokenBudget journals the budget unless it changes nothing.
func (a *agent) setTokenBudget(m *SetTokenBudget) *SetTokenBudgetResult {
	b := a.state.Budget
	if !b.Set || b.LimitTokens != m.LimitTokens || m.ResetSpend {
		p := messages.TokenBudgetSet{LimitTokens: m.LimitTokens, ResetSpend: m.ResetSpend,
			Reason: reasonOr(m.Reason, "operator token budget")}
		if err := a.persist(p); err != nil {
			return &SetTokenBudgetResult{Err: err}
		}
		a.releaseChildren()
	}
	return &SetTokenBudgetResult{Info: a.info()}
}

// SetTokenBudget records agent id's token budget: limit tokens (0 means
// unlimited), counted from the agent's creation, or from now when
// resetSpend is true. An agent whose turn failed on its budget takes its
// next message normally once the limit is above its spend.
func (r *Runtime) SetTokenBudget(ctx context.Context, id string, limit uint64, resetSpend bool, reason string) (agentstate.AgentInfo, error) {
	res, err := r.ask(ctx, id, &SetTokenBudget{LimitTokens: limit, ResetSpend: resetSpend, Reason: reason})
	if err != nil {
		return agentstate.AgentInfo{}, err
	}
	out := res.(*SetTokenBudgetResult)
	return out.Info, out.Err
}

// InfoOf is st's AgentInfo as the runtime describes it (the runtime's
// default budget applied); Active is left false.
func (r *Runtime) InfoOf(st *agentstate.State) agentstate.AgentInfo {
	in := st.Info()
	agentstate.ApplyBudgetDefault(&in, r.deps.DefaultTokenBudget)
	return in
}

// childUsage is a private child's report of its lifetime token total to
// its parent, after a model round or when it starts.
type childUsage struct {
	child string
	total uint64
	// usage is the round that prompted the report (zero for a restart).
	usage messages.TokenUsage
	// path is every agent the report came through, the originating
	// descendant first: an agent on it is not counted again (a cycle of
	// parents would otherwise pass reports around forever).
	path []string
}

// Priority implements mailbox.Prioritized.
func (*childUsage) Priority() messages.Priority { return messages.PriorityNext }

// reportUsage sends this private child's lifetime total to its parent. A
// parent that does not exist gets nothing, and the gap is logged.
func (a *agent) reportUsage(u messages.TokenUsage) { a.reportUsageVia(u, nil) }

// reportUsageVia is reportUsage for a report that came through path.
func (a *agent) reportUsageVia(u messages.TokenUsage, path []string) {
	parent, rt := a.supervisingParent(), a.wire.host
	total := a.state.LifetimeTokens()
	if parent == "" || rt == nil || total == 0 {
		return
	}
	ok, err := rt.Exists(context.Background(), parent)
	if err != nil || !ok {
		a.deps.Log.Warn().Err(err).Str("agent_id", a.id).Str("parent_agent_id", parent).Uint64("tokens", total).
			Msg("parent unreachable: token usage not counted against it")
		return
	}
	rt.Forward(parent, &childUsage{child: a.id, total: total, usage: u, path: append(slices.Clone(path), a.id)})
}

// childUsed records a child's growth in tokens, then reports this agent's
// own new total upward.
func (a *agent) childUsed(m *childUsage) {
	if len(m.path) > 0 && m.path[len(m.path)-1] == m.child {
		defer a.restrain(m.child)
	}
	if slices.Contains(m.path, a.id) {
		a.deps.Log.Warn().Str("agent_id", a.id).Strs("path", m.path).Msg("parent cycle: token usage not counted again")
		return
	}
	b := agentstate.ChildUsage(a.state, m.child, m.total, m.usage)
	if b == nil {
		return // already counted
	}
	if err := a.commit(b); err != nil {
		a.deps.Log.Error().Err(err).Str("agent_id", a.id).Str("child_agent_id", m.child).Msg("child usage not journaled")
		return
	}
	a.reportUsageVia(m.usage, m.path)
}

// ancestorBudget tells a private child that an ancestor's token budget is
// spent (or, with clear, no longer is): the child stops before its next
// model round, like its ancestor, so a parent's budget bounds the whole
// family it pays for. It is passed down to the child's own children. It
// lives in memory: after a restart, the child's first usage report to its
// parent brings it back.
type ancestorBudget struct {
	ancestor, summary string
	clear             bool
}

// Priority implements mailbox.Prioritized.
func (*ancestorBudget) Priority() messages.Priority { return messages.PriorityNext }

// of is the ancestor a decision reads; nil when none is over its budget.
func (m *ancestorBudget) of() *agentstate.Ancestor {
	if m == nil {
		return nil
	}
	return &agentstate.Ancestor{ID: m.ancestor, Summary: m.summary}
}

// restrain tells child that this agent's budget, or an ancestor's, is
// spent.
func (a *agent) restrain(child string) {
	rt := a.wire.host
	if rt == nil {
		return
	}
	if f, over := agentstate.BudgetFailure(a.state, a.env()); over {
		rt.Forward(child, &ancestorBudget{ancestor: a.id, summary: f.Summary})
	} else if o := a.ancestorOver; o != nil {
		rt.Forward(child, o)
	}
}

// ancestorBudgetChanged records (or clears) an ancestor's spent budget and
// passes it to this agent's running children.
func (a *agent) ancestorBudgetChanged(m *ancestorBudget) {
	switch {
	case !m.clear:
		a.ancestorOver = m
	case a.ancestorOver != nil && a.ancestorOver.ancestor == m.ancestor:
		a.ancestorOver = nil
	default:
		return
	}
	if rt := a.wire.host; rt != nil {
		for _, id := range a.state.ChildIDs() {
			rt.Forward(id, m)
		}
	}
}

// releaseChildren tells the running children that this agent's budget is
// no longer spent.
func (a *agent) releaseChildren() {
	if _, over := agentstate.BudgetFailure(a.state, a.env()); over || a.wire.host == nil {
		return
	}
	for _, id := range a.state.ChildIDs() {
		a.wire.host.Forward(id, &ancestorBudget{ancestor: a.id, clear: true})
	}
}
