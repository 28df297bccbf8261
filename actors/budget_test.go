package actors_test

import (
	"context"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// seed journals events for agent before it is first activated: how these
// tests create a private child while SpawnAgent does not exist yet.
func seed(t *testing.T, h *testkit.Harness, agent string, payloads ...messages.Payload) {
	t.Helper()
	evs := make([]messages.Event, len(payloads))
	for i, p := range payloads {
		ev, err := messages.NewEvent(agent, h.Clock.Now(), p)
		if err != nil {
			t.Fatal(err)
		}
		evs[i] = ev
	}
	if _, err := h.Store().Append(context.Background(), agent, evs); err != nil {
		t.Fatal(err)
	}
}

// seedChild creates a private child of parent.
func seedChild(t *testing.T, h *testkit.Harness, id, parent string) {
	t.Helper()
	seed(t, h, id,
		messages.AgentCreated{AgentID: id, Kind: messages.AgentChild, Visibility: messages.VisibilityPrivate,
			Ownership: messages.OwnershipParentSupervised, ProfilePreset: "private_child", ParentAgentID: parent},
		messages.AgentStateChanged{From: messages.StatusBooting, To: messages.StatusAwakeIdle, Reason: "created"},
	)
}

// failureOf returns the n-th runtime_error's failure of agent.
func failureOf(t *testing.T, h *testkit.Harness, agent string, n int) messages.Failure {
	t.Helper()
	return decode[messages.RuntimeError](t, h.WaitEvent(agent, testkit.NthOfType(messages.EventRuntimeError, n))).Failure
}

func budgetOf(t *testing.T, h *testkit.Harness, agent string) actors.TokenBudgetInfo {
	t.Helper()
	in, err := h.Runtime.Info(context.Background(), agent)
	if err != nil {
		t.Fatal(err)
	}
	return in.TokenBudget
}

// TestTokenBudgetStopsBeforeTheRoundPastIt: every scripted round costs 110
// tokens; with a budget of 250 the third round (220 -> 330) is the one
// that crosses it, and the turn fails before a fourth. The budget and
// spend survive a crash; a prompt while exhausted fails without a model
// call; raising the budget lets the next prompt run.
func TestTokenBudgetStopsBeforeTheRoundPastIt(t *testing.T) {
	h := testkit.New(t,
		testkit.Reply("one", testkit.Call("c1", "echo", `{"text":"a"}`)),
		testkit.Reply("two", testkit.Call("c2", "echo", `{"text":"b"}`)),
		testkit.Reply("three", testkit.Call("c3", "echo", `{"text":"c"}`)),
		testkit.Reply("done"),
	)
	ctx := context.Background()
	in, err := h.Runtime.SetTokenBudget(ctx, "main", 250, false, "test budget")
	if err != nil || in.TokenBudget != (actors.TokenBudgetInfo{LimitTokens: 250, Source: actors.BudgetSourceAgent}) {
		t.Fatalf("SetTokenBudget = %+v, %v", in.TokenBudget, err)
	}
	h.Prompt("main", "Echo a, b and c.")
	f := failureOf(t, h, "main", 1)
	if f.Code != "token_budget_exhausted" || f.Category != messages.FailureRuntime ||
		!strings.Contains(f.Summary, "spent 330 tokens") || !strings.Contains(f.Summary, "budget of 250") ||
		!strings.Contains(f.Summary, "holon-actors agents budget main --tokens N") {
		t.Fatalf("failure = %+v", f)
	}
	if n := len(h.Provider.Requests()); n != 3 {
		t.Fatalf("%d model rounds ran, want 3 (the third crossed the budget)", n)
	}
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.Kind != messages.TerminalAborted || tt.Closure.Outcome != messages.OutcomeFailed {
		t.Fatalf("terminal = %+v", tt)
	}
	brief := decode[messages.BriefRecorded](t, h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))).Brief
	n := decode[messages.OperatorNotificationRequested](t, h.WaitEvent("main", testkit.OfType(messages.EventOperatorNotificationRequested))).Notification
	if brief.Kind != messages.BriefFailure || brief.Text != f.Summary || n.Reason != messages.NotifyTokenBudget {
		t.Fatalf("brief = %+v, notification = %+v", brief, n)
	}
	want := actors.TokenBudgetInfo{LimitTokens: 250, SpentTokens: 330, Source: actors.BudgetSourceAgent, Exhausted: true}
	if got := budgetOf(t, h, "main"); got != want {
		t.Fatalf("budget = %+v, want %+v", got, want)
	}

	h.Restart()
	if got := budgetOf(t, h, "main"); got != want {
		t.Fatalf("budget after restart = %+v, want %+v", got, want)
	}
	h.Prompt("main", "Try again.")
	if f := failureOf(t, h, "main", 2); f.Code != "token_budget_exhausted" {
		t.Fatalf("second failure = %+v", f)
	}
	if n := len(h.Provider.Requests()); n != 3 {
		t.Fatalf("an exhausted agent called the model: %d rounds", n)
	}

	if _, err := h.Runtime.SetTokenBudget(ctx, "main", 1000, false, "more room"); err != nil {
		t.Fatal(err)
	}
	h.Prompt("main", "Finish.")
	done := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 3)))
	if done.Kind != messages.TerminalCompleted || done.LastAssistantMessage != "done" {
		t.Fatalf("turn after raising the budget = %+v", done)
	}
	if got := budgetOf(t, h, "main"); got.SpentTokens != 440 || got.Exhausted {
		t.Fatalf("budget after the raise = %+v", got)
	}
	in, err = h.Runtime.SetTokenBudget(ctx, "main", 1000, true, "new month")
	if err != nil || in.TokenBudget.SpentTokens != 0 || in.TokenBudget.LimitTokens != 1000 {
		t.Fatalf("reset = %+v, %v", in.TokenBudget, err)
	}
}

// TestTokenBudgetRuntimeDefault: an agent without a budget of its own gets
// the runtime's default; one set explicitly, even to unlimited, wins.
func TestTokenBudgetRuntimeDefault(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{testkit.Reply("one", testkit.Call("c1", "echo", `{"text":"a"}`)), testkit.Reply("done")},
		Deps:  func(_ string, d *actors.AgentDeps) { d.DefaultTokenBudget = 100 },
	})
	ctx := context.Background()
	if got := budgetOf(t, h, "main"); got.Source != actors.BudgetSourceDefault || got.LimitTokens != 100 {
		t.Fatalf("budget = %+v, want the runtime default", got)
	}
	h.Prompt("main", "Echo a.")
	if f := failureOf(t, h, "main", 1); f.Code != "token_budget_exhausted" || !strings.Contains(f.Summary, "default token budget of 100") {
		t.Fatalf("failure = %+v", f)
	}
	if in, err := h.Runtime.SetTokenBudget(ctx, "main", 0, false, "unlimited"); err != nil ||
		in.TokenBudget != (actors.TokenBudgetInfo{SpentTokens: 110, Source: actors.BudgetSourceAgent}) {
		t.Fatalf("unlimited = %+v, %v", in.TokenBudget, err)
	}
	h.Prompt("main", "Go on.")
	if tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))); tt.Kind != messages.TerminalCompleted {
		t.Fatalf("turn with an unlimited budget = %+v", tt)
	}
}

// TestChildUsageCountsAgainstAncestors: a grandchild's round counts for
// its parent and its grandparent; a child's own round for its parent; the
// parent's budget then stops the parent's rounds.
func TestChildUsageCountsAgainstAncestors(t *testing.T) {
	h := testkit.New(t, testkit.Reply("ok"), testkit.Reply("unused"))
	ctx := context.Background()
	if err := h.Runtime.Activate(ctx, "main"); err != nil {
		t.Fatal(err)
	}
	seedChild(t, h, "kid", "main")
	seedChild(t, h, "grandkid", "kid")

	h.Prompt("grandkid", "Work.")
	rec := decode[messages.ChildUsageRecorded](t, h.WaitEvent("main", testkit.OfType(messages.EventChildUsageRecorded)))
	if rec.ChildAgentID != "kid" || rec.ChildTotalTokens != 110 || rec.TokensAdded != 110 || rec.TokenUsage.InputTokens != 100 {
		t.Fatalf("main recorded %+v", rec)
	}
	if got := budgetOf(t, h, "kid"); got.SpentTokens != 110 {
		t.Fatalf("kid's spend = %+v, want its child's 110", got)
	}

	h.Prompt("kid", "Work too.")
	rec = decode[messages.ChildUsageRecorded](t, h.WaitEvent("main", testkit.NthOfType(messages.EventChildUsageRecorded, 2)))
	if rec.ChildTotalTokens != 220 || rec.TokensAdded != 110 {
		t.Fatalf("main recorded %+v", rec)
	}
	if got := budgetOf(t, h, "main"); got.SpentTokens != 220 {
		t.Fatalf("main's spend = %+v, want its descendants' 220", got)
	}

	if _, err := h.Runtime.SetTokenBudget(ctx, "main", 200, false, "tight"); err != nil {
		t.Fatal(err)
	}
	before := len(h.Provider.Requests())
	h.Prompt("main", "Your turn.")
	if f := failureOf(t, h, "main", 1); f.Code != "token_budget_exhausted" || !strings.Contains(f.Summary, "spent 220 tokens") {
		t.Fatalf("failure = %+v", f)
	}
	if n := len(h.Provider.Requests()); n != before {
		t.Fatalf("main ran %d model rounds over its budget", n-before)
	}
}

// TestChildUsageWithoutParent: a child whose parent does not exist runs
// normally and creates no parent.
func TestChildUsageWithoutParent(t *testing.T) {
	h := testkit.New(t, testkit.Reply("ok"))
	seedChild(t, h, "orphan", "ghost")
	h.Prompt("orphan", "Work.")
	if tt := decode[messages.TurnTerminal](t, h.WaitEvent("orphan", testkit.OfType(messages.EventTurnTerminal))); tt.Kind != messages.TerminalCompleted {
		t.Fatalf("terminal = %+v", tt)
	}
	if ok, err := h.Runtime.Exists(context.Background(), "ghost"); err != nil || ok {
		t.Fatalf("Exists(ghost) = %v, %v; reporting usage must not create the parent", ok, err)
	}
}

// TestChildUsageParentCycle: agents that name each other as parents (a
// journal SpawnAgent would never write) count each other's usage once
// and stop passing reports around.
func TestChildUsageParentCycle(t *testing.T) {
	h := testkit.New(t, testkit.Reply("ok"))
	seedChild(t, h, "a", "b")
	seedChild(t, h, "b", "a")
	h.Prompt("a", "Work.")
	rec := decode[messages.ChildUsageRecorded](t, h.WaitEvent("b", testkit.OfType(messages.EventChildUsageRecorded)))
	if rec.ChildAgentID != "a" || rec.TokensAdded != 110 {
		t.Fatalf("b recorded %+v", rec)
	}
	// A round trip through each agent: any report in flight has landed.
	for _, id := range []string{"a", "b", "a"} {
		if _, err := h.Runtime.State(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(h.Events("a"), messages.EventChildUsageRecorded) + count(h.Events("b"), messages.EventChildUsageRecorded); n != 1 {
		t.Fatalf("%d child_usage_recorded events, want 1", n)
	}
}
