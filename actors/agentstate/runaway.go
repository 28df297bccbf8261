package agentstate

import (
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
)

// The runaway protections' decisions, taken before every model round: the
// loop breaker (TurnState.Loop) and the token budgets (TokenBudgetState).

// DefaultLoopBreakerRepeats is the limit of the loop breaker when
// Config.LoopBreakerRepeats is 0.
const DefaultLoopBreakerRepeats = 4

// BudgetWarnPercent is the share of its token budget after which an agent
// warns its operator (and its model) once.
const BudgetWarnPercent = 80

// ApplyBudgetDefault gives an agent without a budget of its own the
// runtime's default limit.
func ApplyBudgetDefault(in *AgentInfo, def uint64) {
	b := &in.TokenBudget
	if b.Source == BudgetSourceNone && def > 0 {
		b.Source, b.LimitTokens = BudgetSourceDefault, def
		b.Exhausted = b.SpentTokens >= def
	}
}

// loopLimit is the number of repeats that trips the breaker under the
// configured LoopBreakerRepeats; 0 when it is disabled.
func loopLimit(n int) int {
	switch {
	case n < 0:
		return 0
	case n == 0:
		return DefaultLoopBreakerRepeats
	default:
		return n
	}
}

// loopFailure is the failure of a turn whose model is looping; false when
// it may run another model round.
func LoopFailure(st *State, env Env) (messages.Failure, bool) {
	t, limit := st.Turn, loopLimit(env.Cfg.LoopBreakerRepeats)
	if t == nil || limit == 0 || t.Loop.Repeats < limit {
		return messages.Failure{}, false
	}
	summary := fmt.Sprintf("Agent %s stopped this turn: the model called %s with the same arguments %d times in a row "+
		"and got the same result each time, so it was looping instead of making progress. No further model round ran. "+
		"Check the agent's last tool results (holon-actors transcript), then send a prompt that changes its approach.",
		env.AgentID, t.Loop.Tool, t.Loop.Repeats)
	return RuntimeFailure(CodeLoopBreaker, summary), true
}

// budgetOf is the agent's budget with the runtime's default applied.
func budgetOf(st *State, env Env) TokenBudgetInfo {
	info := AgentInfo{TokenBudget: st.BudgetInfo()}
	ApplyBudgetDefault(&info, env.Cfg.DefaultTokenBudget)
	return info.TokenBudget
}

// budgetFailure is the failure of a turn stopped by the token budget;
// false when the agent may run another model round.
func BudgetFailure(st *State, env Env) (messages.Failure, bool) {
	in, id := budgetOf(st, env), env.AgentID
	if !in.Exhausted {
		return messages.Failure{}, false
	}
	whose := fmt.Sprintf("its token budget of %d", in.LimitTokens)
	if in.Source == BudgetSourceDefault {
		whose = fmt.Sprintf("the runtime's default token budget of %d (token_budget in config.json)", in.LimitTokens)
	}
	summary := fmt.Sprintf("Agent %s stopped before its next model round: it has spent %d tokens (its own and its child agents' "+
		"model rounds), reaching %s. Raise the budget with `holon-actors agents budget %s --tokens N` "+
		"(or POST /control/agents/%s/budget {\"token_budget\": N}), or add --reset to count from zero, then send the prompt again.",
		id, in.SpentTokens, whose, id, id)
	return RuntimeFailure(CodeTokenBudget, summary), true
}

// ancestorFailure is the failure of a turn stopped by the spent budget of
// an ancestor (over, nil when none is spent).
func AncestorFailure(env Env, over *Ancestor) (messages.Failure, bool) {
	if over == nil {
		return messages.Failure{}, false
	}
	summary := fmt.Sprintf("Agent %s stopped before its next model round: its supervising agent %s is over its token budget, "+
		"which counts this agent's spend. %s", env.AgentID, over.ID, over.Summary)
	return RuntimeFailure(CodeTokenBudget, summary), true
}

// runaway decides, before a model round, whether the turn in flight stops
// instead: on the loop breaker first, then the agent's own budget, then an
// ancestor's (over). When it goes on, warn is the budget warning due now,
// if any.
func Runaway(st *State, env Env, over *Ancestor) (f messages.Failure, stop bool, warn Batch) {
	if f, stop = LoopFailure(st, env); stop {
		return f, true, nil
	}
	if f, stop = BudgetFailure(st, env); stop {
		return f, true, nil
	}
	if f, stop = AncestorFailure(env, over); stop {
		return f, true, nil
	}
	return messages.Failure{}, false, BudgetWarning(st, env)
}

// budgetWarning tells the operator, and the model at its next carrier,
// once the spend passed BudgetWarnPercent of the limit: a soft threshold
// before the hard stop. Once per budget: applying the Batch sets
// Budget.Warned. Nil when no warning is due.
func BudgetWarning(st *State, env Env) Batch {
	b := budgetOf(st, env)
	if st.Budget.Warned || b.LimitTokens == 0 || b.Exhausted || b.SpentTokens*100 < b.LimitTokens*BudgetWarnPercent {
		return nil
	}
	msg := fmt.Sprintf("Agent %s has spent %d of its %d-token budget (%d%%); it stops before the model round that would pass it. "+
		"Raise it with `holon-actors agents budget %s --tokens N` if it should go on.", env.AgentID, b.SpentTokens, b.LimitTokens,
		b.SpentTokens*100/b.LimitTokens, env.AgentID)
	return notifyBoth(NotificationOf(st, env, messages.NotifyTokenBudgetWarning, msg, ""),
		messages.SystemNotification{Kind: "budget.warning", Level: messages.LevelWarning,
			Message: fmt.Sprintf("You have spent %d of your %d-token budget. Finish the most important work and report; "+
				"you will be stopped when it is spent.", b.SpentTokens, b.LimitTokens)})
}

// ChildUsage records a private child's report of its lifetime token total
// (usage is the round that prompted it): the growth over the child's last
// report counts against this agent's budget. Nil when the report adds
// nothing (a repeated or late one).
func ChildUsage(st *State, child string, total uint64, usage messages.TokenUsage) Batch {
	prev := st.Budget.ChildTokens[child]
	if total <= prev {
		return nil
	}
	return Batch{messages.ChildUsageRecorded{ChildAgentID: child, TokenUsage: usage, ChildTotalTokens: total, TokensAdded: total - prev}}
}
