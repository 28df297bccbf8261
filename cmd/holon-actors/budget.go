package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// agentsBudgetCmd is `agents budget`: show or set an agent's token budget.
type agentsBudgetCmd struct {
	ID     string `arg:"" optional:"" help:"Agent id (default: --agent, else the default agent)."`
	Tokens *int64 `help:"Token limit (input plus output tokens of the agent's model rounds and its child agents'); 0 means unlimited." placeholder:"N"`
	Reset  bool   `help:"Count the spend from zero again (with --tokens, or alone to keep the limit)."`
	Reason string `help:"Why, for the journal."`
}

// Run shows the budget, or sets it and shows the result.
func (a *agentsBudgetCmd) Run(ctx context.Context, e *env) error {
	if a.Tokens != nil && *a.Tokens < 0 {
		return usage(errors.New("--tokens must be 0 (unlimited) or more"))
	}
	c, id, err := agentSession(ctx, e, a.ID)
	if err != nil {
		return err
	}
	defer c.Close()
	var in agentstate.AgentInfo
	switch {
	case a.Tokens != nil:
		in, err = c.SetTokenBudget(ctx, id, *a.Tokens, a.Reset, a.Reason)
	default:
		st, serr := c.Status(ctx, id)
		in, err = st.AgentInfo, serr
		if err == nil && a.Reset {
			in, err = c.SetTokenBudget(ctx, id, int64(in.TokenBudget.LimitTokens), true, a.Reason)
		}
	}
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, struct {
			AgentID string `json:"agent_id"`
			agentstate.TokenBudgetInfo
		}{in.ID, in.TokenBudget})
	}
	fmt.Fprintf(e.stdout, "%s: %s\n", in.ID, describeBudget(in.TokenBudget))
	return nil
}

// shortBudget is the spend and the limit for a table cell: "1200/5000",
// "1200" with no limit, a "!" once exhausted.
func shortBudget(b agentstate.TokenBudgetInfo) string {
	s := fmt.Sprint(b.SpentTokens)
	if b.LimitTokens > 0 {
		s += fmt.Sprintf("/%d", b.LimitTokens)
	}
	if b.Exhausted {
		s += "!"
	}
	return s
}

// describeBudget is a budget in one line.
func describeBudget(b agentstate.TokenBudgetInfo) string {
	if b.LimitTokens == 0 {
		return fmt.Sprintf("%d tokens spent, no limit", b.SpentTokens)
	}
	s := fmt.Sprintf("%d of %d tokens spent", b.SpentTokens, b.LimitTokens)
	if b.Source == agentstate.BudgetSourceDefault {
		s += " (the runtime's default budget)"
	}
	if b.Exhausted {
		s += "; exhausted: no model round runs until the limit is raised"
	}
	return s
}
