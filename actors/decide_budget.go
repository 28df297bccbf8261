package actors

import (
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
)

// The runaway protections' decisions: the loop breaker (loop_breaker.go)
// and the token budgets (budget.go), taken before every model round.

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
func loopFailure(st *AgentState, env decideEnv) (messages.Failure, bool) {
	t, limit := st.Turn, loopLimit(env.Cfg.LoopBreakerRepeats)
	if t == nil || limit == 0 || t.Loop.Repeats < limit {
		return messages.Failure{}, false
	}
	summary := fmt.Sprintf("Agent %s stopped this turn: the model called %s with the same arguments %d times in a row "+
		"and got the same result each time, so it was looping instead of making progress. No further model round ran. "+
		"Check the agent's last tool results (holon-actors transcript), then send a prompt that changes its approach.",
		env.AgentID, t.Loop.Tool, t.Loop.Repeats)
	return runtimeFailure(codeLoopBreaker, summary), true
}

// budgetOf is the agent's budget with the runtime's default applied.
func budgetOf(st *AgentState, env decideEnv) TokenBudgetInfo {
	info := AgentInfo{TokenBudget: st.BudgetInfo()}
	applyBudgetDefault(&info, env.Cfg.DefaultTokenBudget)
	return info.TokenBudget
}

// budgetFailure is the failure of a turn stopped by the token budget;
// false when the agent may run another model round.
func budgetFailure(st *AgentState, env decideEnv) (messages.Failure, bool) {
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
	return runtimeFailure(codeTokenBudget, summary), true
}

// ancestorFailure is the failure of a turn stopped by the spent budget of
// an ancestor (over, nil when none is spent).
func ancestorFailure(env decideEnv, over *ancestorBudget) (messages.Failure, bool) {
	if over == nil {
		return messages.Failure{}, false
	}
	summary := fmt.Sprintf("Agent %s stopped before its next model round: its supervising agent %s is over its token budget, "+
		"which counts this agent's spend. %s", env.AgentID, over.ancestor, over.summary)
	return runtimeFailure(codeTokenBudget, summary), true
}

// runaway decides, before a model round, whether the turn in flight stops
// instead: on the loop breaker first, then the agent's own budget, then an
// ancestor's (over). When it goes on, warn is the budget warning due now,
// if any.
func runaway(st *AgentState, env decideEnv, over *ancestorBudget) (f messages.Failure, stop bool, warn batch) {
	if f, stop = loopFailure(st, env); stop {
		return f, true, nil
	}
	if f, stop = budgetFailure(st, env); stop {
		return f, true, nil
	}
	if f, stop = ancestorFailure(env, over); stop {
		return f, true, nil
	}
	return messages.Failure{}, false, budgetWarning(st, env)
}

// budgetWarning tells the operator, and the model at its next carrier,
// once the spend passed BudgetWarnPercent of the limit: a soft threshold
// before the hard stop. Once per budget: applying the batch sets
// Budget.Warned. Nil when no warning is due.
func budgetWarning(st *AgentState, env decideEnv) batch {
	b := budgetOf(st, env)
	if st.Budget.Warned || b.LimitTokens == 0 || b.Exhausted || b.SpentTokens*100 < b.LimitTokens*BudgetWarnPercent {
		return nil
	}
	msg := fmt.Sprintf("Agent %s has spent %d of its %d-token budget (%d%%); it stops before the model round that would pass it. "+
		"Raise it with `holon-actors agents budget %s --tokens N` if it should go on.", env.AgentID, b.SpentTokens, b.LimitTokens,
		b.SpentTokens*100/b.LimitTokens, env.AgentID)
	return notifyBoth(notificationOf(st, env, messages.NotifyTokenBudgetWarning, msg, ""),
		messages.SystemNotification{Kind: "budget.warning", Level: messages.LevelWarning,
			Message: fmt.Sprintf("You have spent %d of your %d-token budget. Finish the most important work and report; "+
				"you will be stopped when it is spent.", b.SpentTokens, b.LimitTokens)})
}

// runtimeFailure is a failure of the runtime's own making: code, and one
// summary for the operator and the audit record alike.
func runtimeFailure(code, summary string) messages.Failure {
	return messages.Failure{Category: messages.FailureRuntime, Code: code, Message: summary, Summary: summary}
}
