package control_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestBudgetRoute: a budget is journaled, shown in the status with the
// spend, and stops the agent's model rounds once spent; raising it lets
// the next prompt run.
func TestBudgetRoute(t *testing.T) {
	f := newFixture(t, testkit.Reply("one"), testkit.Reply("two"))
	ctx := context.Background()
	in, err := f.c.SetTokenBudget(ctx, "main", 100, false, "try it")
	if err != nil || in.TokenBudget != (agentstate.TokenBudgetInfo{LimitTokens: 100, Source: agentstate.BudgetSourceAgent}) {
		t.Fatalf("SetTokenBudget = %+v, %v", in.TokenBudget, err)
	}
	if _, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	f.h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))
	st, err := f.c.Status(ctx, "main")
	if err != nil || st.TokenBudget != (agentstate.TokenBudgetInfo{LimitTokens: 100, SpentTokens: 110, Source: agentstate.BudgetSourceAgent, Exhausted: true}) {
		t.Fatalf("status budget = %+v, %v", st.TokenBudget, err)
	}
	if _, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "again"}); err != nil {
		t.Fatal(err)
	}
	brief := f.h.WaitEvent("main", testkit.NthOfType(messages.EventBriefRecorded, 2))
	if !strings.Contains(string(brief.Payload), "token budget of 100") {
		t.Fatalf("second brief = %s, want the budget failure", brief.Payload)
	}
	code, body := f.post(t, "/control/agents/main/budget", `{"token_budget": 1000, "reason": "more"}`)
	var raised agentstate.AgentInfo
	if code != http.StatusOK || json.Unmarshal([]byte(body), &raised) != nil || raised.TokenBudget.LimitTokens != 1000 {
		t.Fatalf("raise = %d %s", code, body)
	}
	if _, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "now"}); err != nil {
		t.Fatal(err)
	}
	done := f.h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 3))
	if !strings.Contains(string(done.Payload), `"kind":"completed"`) {
		t.Fatalf("turn after the raise = %s", done.Payload)
	}
}

// TestBudgetRouteRefusesBadInput: anything but a whole number of tokens
// is a 422 in the API's error shape, and nothing is journaled.
func TestBudgetRouteRefusesBadInput(t *testing.T) {
	f := newFixture(t)
	before := len(f.h.Events("main"))
	for _, body := range []string{`{"token_budget": -5}`, `{"token_budget": 1.5}`, `{"token_budget": "100"}`,
		`{"token_budget": 1e3}`, `{"token_budget": null}`, `{}`, `{"token_budget": 18446744073709551616}`} {
		code, answer := f.post(t, "/control/agents/main/budget", body)
		e := errorBody(t, answer)
		if code != http.StatusUnprocessableEntity || e.Kind != control.KindInvalid || e.Hint == "" || e.Message == "" {
			t.Errorf("%s = %d %s; want 422 invalid_input with a hint", body, code, answer)
		}
	}
	if _, err := f.c.SetTokenBudget(context.Background(), "main", -1, false, ""); err == nil {
		t.Error("the client's negative budget was accepted")
	} else {
		apiError(t, err, http.StatusUnprocessableEntity, control.KindInvalid)
	}
	if code, _ := f.post(t, "/control/agents/nobody/budget", `{"token_budget": 5}`); code != http.StatusNotFound {
		t.Errorf("unknown agent = %d, want 404", code)
	}
	if after := len(f.h.Events("main")); after != before {
		t.Fatalf("refused budgets wrote %d events", after-before)
	}
}
