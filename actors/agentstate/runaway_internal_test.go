package agentstate

import (
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestLoopFailure(t *testing.T) {
	looping := func(n int) *State {
		return &State{Turn: &TurnState{ID: "t1", Loop: LoopState{Tool: "fetch", Repeats: n}}}
	}
	cases := []struct {
		name    string
		st      *State
		repeats int // LoopBreakerRepeats
		stop    bool
	}{
		{"no turn", &State{}, 0, false},
		{"below the default", looping(DefaultLoopBreakerRepeats - 1), 0, false},
		{"at the default", looping(DefaultLoopBreakerRepeats), 0, true},
		{"at a configured limit", looping(2), 2, true},
		{"below a configured limit", looping(4), 5, false},
		{"disabled", looping(100), -1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv()
			env.Cfg.LoopBreakerRepeats = c.repeats
			f, stop := LoopFailure(c.st, env)
			if stop != c.stop {
				t.Fatalf("loopFailure stop = %v, want %v", stop, c.stop)
			}
			if stop && (f.Code != CodeLoopBreaker || f.Category != messages.FailureRuntime || !strings.Contains(f.Summary, "called fetch")) {
				t.Errorf("loopFailure = %+v, want a runtime %s naming fetch", f, CodeLoopBreaker)
			}
		})
	}
}

func TestBudgetFailure(t *testing.T) {
	spent := func(tokens uint64, b TokenBudgetState) *State {
		return &State{TotalInputTokens: tokens / 2, TotalOutputTokens: tokens - tokens/2, Budget: b}
	}
	cases := []struct {
		name   string
		st     *State
		def    uint64
		stop   bool
		source string // in the summary
	}{
		{"unlimited", spent(1_000_000, TokenBudgetState{}), 0, false, ""},
		{"own budget left", spent(99, TokenBudgetState{Set: true, LimitTokens: 100}), 0, false, ""},
		{"own budget spent", spent(100, TokenBudgetState{Set: true, LimitTokens: 100}), 0, true, "its token budget of 100"},
		{"descendants count", &State{TotalInputTokens: 50, Budget: TokenBudgetState{Set: true, LimitTokens: 100, DescendantTokens: 50}}, 0, true, "its token budget of 100"},
		{"spend reset", spent(150, TokenBudgetState{Set: true, LimitTokens: 100, SpendBase: 100}), 0, false, ""},
		{"default spent", spent(10, TokenBudgetState{}), 10, true, "default token budget of 10"},
		{"own unlimited beats the default", spent(10, TokenBudgetState{Set: true}), 10, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv()
			env.Cfg.DefaultTokenBudget = c.def
			f, stop := BudgetFailure(c.st, env)
			if stop != c.stop {
				t.Fatalf("budgetFailure stop = %v, want %v", stop, c.stop)
			}
			if stop && (f.Code != CodeTokenBudget || !strings.Contains(f.Summary, c.source) || !strings.Contains(f.Summary, "agents budget a1")) {
				t.Errorf("budgetFailure summary = %q, want %s naming %q and the command", f.Summary, CodeTokenBudget, c.source)
			}
		})
	}
}

func TestRunaway(t *testing.T) {
	loop := &TurnState{ID: "t1", MessageID: "m1", Loop: LoopState{Tool: "fetch", Repeats: DefaultLoopBreakerRepeats}}
	over := &Ancestor{ID: "boss", Summary: "Boss is over."}
	cases := []struct {
		name     string
		st       *State
		over     *Ancestor
		stop     bool
		code     string
		warnings int // operator notifications in warn
	}{
		{"nothing", &State{Turn: &TurnState{ID: "t1"}}, nil, false, "", 0},
		{"the loop first", &State{Turn: loop, TotalInputTokens: 100, Budget: TokenBudgetState{Set: true, LimitTokens: 100}}, over, true, CodeLoopBreaker, 0},
		{"own budget before the ancestor's", &State{TotalInputTokens: 100, Budget: TokenBudgetState{Set: true, LimitTokens: 100}}, over, true, CodeTokenBudget, 0},
		{"the ancestor's budget", &State{}, over, true, CodeTokenBudget, 0},
		{"warn at 80%", &State{TotalInputTokens: 80, Budget: TokenBudgetState{Set: true, LimitTokens: 100}}, nil, false, "", 1},
		{"no warning below 80%", &State{TotalInputTokens: 79, Budget: TokenBudgetState{Set: true, LimitTokens: 100}}, nil, false, "", 0},
		{"warned once", &State{TotalInputTokens: 90, Budget: TokenBudgetState{Set: true, LimitTokens: 100, Warned: true}}, nil, false, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, stop, warn := Runaway(c.st, testEnv(), c.over)
			if stop != c.stop || f.Code != c.code {
				t.Fatalf("runaway = %q, %v, want %q, %v", f.Code, stop, c.code, c.stop)
			}
			if got := len(warn) / 2; got != c.warnings {
				t.Fatalf("runaway warn = %v, want %d warning(s)", eventTypes(warn), c.warnings)
			}
			if c.over != nil && c.code == CodeTokenBudget && c.st.Budget.LimitTokens == 0 && !strings.Contains(f.Summary, "supervising agent boss") {
				t.Errorf("ancestor failure summary = %q, want it to name boss", f.Summary)
			}
		})
	}
}

func TestBudgetWarning(t *testing.T) {
	st := &State{ID: "a1", TotalInputTokens: 85, Visibility: messages.VisibilityPrivate, ParentAgentID: "boss",
		Budget: TokenBudgetState{Set: true, LimitTokens: 100}, Turn: &TurnState{ID: "t1", MessageID: "m1"}}
	b := BudgetWarning(st, testEnv())
	if !slices.Equal(eventTypes(b), []string{"operator_notification_requested", "system_notification_queued"}) {
		t.Fatalf("budgetWarning = %v", eventTypes(b))
	}
	n := only[messages.OperatorNotificationRequested](t, b).Notification
	want := messages.OperatorNotification{NotificationID: "ntf-1", AgentID: "a1", RequestedByAgentID: "a1", Reason: messages.NotifyTokenBudgetWarning,
		TargetOperatorBoundary: messages.BoundaryParentSupervisor, BoundaryAgentID: "boss", CorrelationID: "t1", CausationID: "m1", CreatedAt: testNow}
	if n.NotificationID != want.NotificationID || n.Reason != want.Reason || n.BoundaryAgentID != want.BoundaryAgentID ||
		n.TargetOperatorBoundary != want.TargetOperatorBoundary || n.CorrelationID != want.CorrelationID || !n.CreatedAt.Equal(testNow) ||
		!strings.Contains(n.Message, "85 of its 100-token budget (85%)") {
		t.Errorf("warning = %+v, want %+v with the spend", n, want)
	}
	if s := only[messages.SystemNotificationQueued](t, b).Notification; s.Kind != "budget.warning" || s.Level != messages.LevelWarning {
		t.Errorf("model warning = %+v", s)
	}
	// Applying the Batch marks the budget warned: the next check is silent.
	applyAll(t, st, testNow, b...)
	if again := BudgetWarning(st, testEnv()); again != nil {
		t.Errorf("budgetWarning after its Batch applied = %v, want nothing", eventTypes(again))
	}
}

func TestChildUsage(t *testing.T) {
	st := &State{ID: "a1", Budget: TokenBudgetState{Set: true, LimitTokens: 1000}}
	steps := []struct {
		child string
		total uint64
		added uint64 // 0: nothing recorded
		spent uint64 // after
	}{
		{"kid", 100, 100, 100},
		{"kid", 100, 0, 100}, // a repeated report
		{"kid", 80, 0, 100},  // a late one
		{"kid", 250, 150, 250},
		{"other", 50, 50, 300},
	}
	for i, s := range steps {
		b := ChildUsage(st, s.child, s.total, messages.TokenUsage{})
		if s.added == 0 {
			if b != nil {
				t.Fatalf("step %d: ChildUsage = %v, want nothing", i, eventTypes(b))
			}
			continue
		}
		if p := only[messages.ChildUsageRecorded](t, b); p.TokensAdded != s.added || p.ChildTotalTokens != s.total {
			t.Fatalf("step %d: ChildUsage = %+v, want %d added", i, p, s.added)
		}
		applyAll(t, st, testNow, b...)
		if got := st.BudgetInfo().SpentTokens; got != s.spent {
			t.Fatalf("step %d: spent = %d, want %d", i, got, s.spent)
		}
	}
}
