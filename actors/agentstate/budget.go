package agentstate

import (
	"github.com/holon-actors/holon-actors/messages"
)

// TokenBudgetInfo is the budget as status and list show it.
type TokenBudgetInfo struct {
	// LimitTokens is the limit in force; 0 means unlimited.
	LimitTokens uint64 `json:"limit_tokens"`
	// SpentTokens counts toward the limit (own and descendants' rounds).
	SpentTokens uint64 `json:"spent_tokens"`
	// Source says where the limit comes from: agent (set by an operator),
	// runtime_default (token_budget in config.json) or none.
	Source string `json:"source"`
	// Exhausted is true when the agent will not start another model round
	// until the limit is raised or the spend reset.
	Exhausted bool `json:"exhausted"`
}

// The sources of a TokenBudgetInfo's limit.
const (
	BudgetSourceAgent   = "agent"
	BudgetSourceDefault = "runtime_default"
	BudgetSourceNone    = "none"
)

// LifetimeTokens is every token the agent and its descendants spent.
func (s *State) LifetimeTokens() uint64 {
	return s.TotalInputTokens + s.TotalOutputTokens + s.Budget.DescendantTokens
}

// spentTokens is the spend counted against the budget.
func (s *State) spentTokens() uint64 {
	if l := s.LifetimeTokens(); l > s.Budget.SpendBase {
		return l - s.Budget.SpendBase
	}
	return 0
}

// BudgetInfo is the budget without the runtime's default (see
// applyBudgetDefault).
func (s *State) BudgetInfo() TokenBudgetInfo {
	in := TokenBudgetInfo{SpentTokens: s.spentTokens(), Source: BudgetSourceNone}
	if s.Budget.Set {
		in.Source, in.LimitTokens = BudgetSourceAgent, s.Budget.LimitTokens
	}
	in.Exhausted = in.LimitTokens > 0 && in.SpentTokens >= in.LimitTokens
	return in
}

func (s *State) applyTokenBudgetSet(p messages.TokenBudgetSet) {
	s.Budget.Set, s.Budget.LimitTokens, s.Budget.Warned = true, p.LimitTokens, false
	if p.ResetSpend {
		s.Budget.SpendBase = s.LifetimeTokens()
	}
}

func (s *State) applyChildUsage(p messages.ChildUsageRecorded) {
	if s.Budget.ChildTokens == nil {
		s.Budget.ChildTokens = make(map[string]uint64)
	}
	s.Budget.ChildTokens[p.ChildAgentID] = p.ChildTotalTokens
	s.Budget.DescendantTokens += p.TokensAdded
}
