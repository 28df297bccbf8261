package actors_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools/task"
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
	// A warning once past 80 % (220 of 250, before the third round), then
	// the stop.
	warn := decode[messages.OperatorNotificationRequested](t, h.WaitEvent("main", testkit.NthOfType(messages.EventOperatorNotificationRequested, 1))).Notification
	n := decode[messages.OperatorNotificationRequested](t, h.WaitEvent("main", testkit.NthOfType(messages.EventOperatorNotificationRequested, 2))).Notification
	if brief.Kind != messages.BriefFailure || brief.Text != f.Summary || n.Reason != messages.NotifyTokenBudget {
		t.Fatalf("brief = %+v, notification = %+v", brief, n)
	}
	if warn.Reason != messages.NotifyTokenBudgetWarning || !strings.Contains(warn.Message, "spent 220 of its 250-token budget (88%)") {
		t.Fatalf("warning = %+v", warn)
	}
	if n := testkit.CountOfType(h.Events("main"), messages.EventOperatorNotificationRequested); n != 2 {
		t.Fatalf("%d operator notifications, want the warning and the stop", n)
	}
	queued := false
	for _, ev := range h.Events("main") {
		if ev.Type == messages.EventSystemNotificationQueued && strings.Contains(string(ev.Payload), "budget.warning") {
			queued = true
		}
	}
	if !queued {
		t.Error("the model was not told its budget is nearly spent")
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

// TestChildUsageCountsAgainstAncestors: main delegates to kid, kid to
// grandkid. Every round costs 110 tokens: the grandkid's round counts for
// kid and main, kid's three for main, and main's budget then stops main.
func TestChildUsageCountsAgainstAncestors(t *testing.T) {
	f := newFamily(t,
		[]testkit.Step{testkit.Reply("", spawnCall("s1", "kid: delegate the work")), testkit.Reply("Delegated."), testkit.Reply("main done")},
		nil)
	f.roles["kid"] = testkit.NewProvider(testkit.Reply("", spawnCall("k1", "grandkid: work")), testkit.Reply("waiting"), testkit.Reply("kid done"))
	f.roles["grandkid"] = testkit.NewProvider(testkit.Reply("ok"))
	ctx := context.Background()
	f.Prompt("main", "Work through helpers.")
	kid := spawned(t, f.Harness, "main", "s1").ChildAgentID
	briefWith(t, f.Harness, "main", messages.BriefResult, "main done")
	// kid reports its lifetime total (its 3 rounds and grandkid's 1).
	rec := decode[messages.ChildUsageRecorded](t, f.WaitEvent("main", func(ev messages.Event) bool {
		return ev.Type == messages.EventChildUsageRecorded && decode[messages.ChildUsageRecorded](t, ev).ChildTotalTokens == 440
	}))
	if rec.ChildAgentID != kid {
		t.Fatalf("main recorded %+v", rec)
	}
	if got := budgetOf(t, f.Harness, "main"); got.SpentTokens != 3*110+440 {
		t.Fatalf("main's spend = %+v, want its 330 and its descendants' 440", got)
	}

	if _, err := f.Runtime.SetTokenBudget(ctx, "main", 500, false, "tight"); err != nil {
		t.Fatal(err)
	}
	before := len(f.parent.Requests())
	f.Prompt("main", "Your turn.")
	if fl := failureOf(t, f.Harness, "main", 1); fl.Code != "token_budget_exhausted" || !strings.Contains(fl.Summary, "spent 770 tokens") {
		t.Fatalf("failure = %+v", fl)
	}
	if n := len(f.parent.Requests()); n != before {
		t.Fatalf("main ran %d model rounds over its budget", n-before)
	}
}

// TestChildWithoutParent: a private child whose parent does not exist (a
// damaged journal) is an orphan: it archives itself instead of running,
// and no parent is created for it.
func TestChildWithoutParent(t *testing.T) {
	h := testkit.New(t, testkit.Reply("ok"))
	seedChild(t, h, "orphan", "ghost")
	if _, err := h.Runtime.Admit(context.Background(), h.Envelope("orphan", "Work.", messages.PriorityNormal)); !errors.Is(err, actors.ErrAgentArchived) {
		t.Fatalf("admit to the orphan = %v, want ErrAgentArchived", err)
	}
	if n := len(h.Provider.Requests()); n != 0 {
		t.Fatalf("the orphan called its model %d times", n)
	}
	if ok, err := h.Runtime.Exists(context.Background(), "ghost"); err != nil || ok {
		t.Fatalf("Exists(ghost) = %v, %v; routing to a missing parent must not create it", ok, err)
	}
}

// TestChildParentCycle: agents that name each other as parents (a
// journal SpawnAgent never writes) neither loop nor run: both archive.
func TestChildParentCycle(t *testing.T) {
	h := testkit.New(t, testkit.Reply("ok"))
	seedChild(t, h, "a", "b")
	seedChild(t, h, "b", "a")
	if _, err := h.Runtime.Admit(context.Background(), h.Envelope("a", "Work.", messages.PriorityNormal)); !errors.Is(err, actors.ErrAgentArchived) {
		t.Fatalf("admit = %v, want ErrAgentArchived", err)
	}
	h.WaitEvent("b", statusIs(messages.StatusArchived))
	if n := len(h.Provider.Requests()); n != 0 {
		t.Fatalf("the model was called %d times", n)
	}
}

// TestParentBudgetStopsItsChildren: a parent's budget counts its child's
// spend, and once it is spent the child stops before its next model round
// too (at most the round in flight overshoots), fails, and rejoins the
// parent as a failed task.
func TestParentBudgetStopsItsChildren(t *testing.T) {
	gate := make(chan struct{})
	echo := func(id, text string) testkit.Step {
		return testkit.Reply("", testkit.Call(id, "echo", `{"text":"`+text+`"}`))
	}
	second := echo("e2", "b")
	second.Gate = gate
	f := newFamily(t,
		[]testkit.Step{testkit.Reply("", spawnCall("s1", "Work long.")), testkit.Reply("Delegated."), testkit.Reply("noted")},
		[]testkit.Step{echo("e1", "a"), second, echo("e3", "c"), echo("e4", "d"), testkit.Reply("done")})
	ctx := context.Background()
	if _, err := f.Runtime.SetTokenBudget(ctx, "main", 300, false, "tight"); err != nil {
		t.Fatal(err)
	}
	f.Prompt("main", "Delegate long work.")
	res := spawned(t, f.Harness, "main", "s1")
	f.WaitEvent("main", testkit.OfType(messages.EventChildUsageRecorded)) // 220 of main's + 110 of the child's
	close(gate)
	end := taskEnded(t, f.Harness, "main", res.SupervisionTaskID)
	if end.Status != task.StatusFailed {
		t.Fatalf("child task ended %s, want failed", end.Status)
	}
	fl := decode[messages.RuntimeError](t, f.WaitEvent(res.ChildAgentID, testkit.OfType(messages.EventRuntimeError))).Failure
	if fl.Code != "token_budget_exhausted" || !strings.Contains(fl.Summary, "supervising agent main") {
		t.Fatalf("child failure = %+v", fl)
	}
	if n := len(f.child.Requests()); n > 3 {
		t.Fatalf("the child ran %d model rounds after its parent's budget was spent at its first", n)
	}
}
