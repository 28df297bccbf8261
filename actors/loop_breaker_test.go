package actors_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// echoRounds scripts one echo call per round with the given arguments,
// then a final reply.
func echoRounds(args ...string) []testkit.Step {
	var steps []testkit.Step
	for i, a := range args {
		steps = append(steps, testkit.Reply("", testkit.Call(fmt.Sprintf("c%d", i+1), "echo", a)))
	}
	return append(steps, testkit.Reply("done"))
}

// TestLoopBreakerTrips: the fourth identical call with the same result
// ends the turn before another model round, whatever the arguments'
// spacing and key order.
func TestLoopBreakerTrips(t *testing.T) {
	same := []string{`{"text":"x"}`, `{ "text" : "x" }`, `{"text":"x"}`, "{\n\"text\": \"x\"}", `{"text":"x"}`}
	h := testkit.New(t, echoRounds(same...)...)
	h.Prompt("main", "Loop.")
	f := failureOf(t, h, "main", 1)
	if f.Code != "loop_breaker_tripped" || f.Category != messages.FailureRuntime ||
		!strings.Contains(f.Summary, "called echo with the same arguments 4 times") {
		t.Fatalf("failure = %+v", f)
	}
	if n := len(h.Provider.Requests()); n != 4 {
		t.Fatalf("%d model rounds, want 4 (none after the fourth repeat)", n)
	}
	if n := len(h.Echo.Executions()); n != 4 {
		t.Fatalf("%d echo executions, want 4", n)
	}
	n := decode[messages.OperatorNotificationRequested](t, h.WaitEvent("main", testkit.OfType(messages.EventOperatorNotificationRequested))).Notification
	brief := decode[messages.BriefRecorded](t, h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))).Brief
	if n.Reason != messages.NotifyLoopBreaker || brief.Kind != messages.BriefFailure || brief.Text != f.Summary {
		t.Fatalf("notification = %+v, brief = %+v", n, brief)
	}
}

// TestLoopBreakerDoesNotTrip: alternating arguments never repeat in a
// row; a disabled breaker lets any loop run.
func TestLoopBreakerDoesNotTrip(t *testing.T) {
	x, y := `{"text":"x"}`, `{"text":"y"}`
	cases := []struct {
		name    string
		repeats int
		args    []string
	}{
		{"varying arguments", 0, []string{x, y, x, y, x, y}},
		{"disabled", -1, []string{x, x, x, x, x, x}},
		{"below a raised limit", 7, []string{x, x, x, x, x, x}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := testkit.NewWith(t, testkit.Options{Steps: echoRounds(tc.args...),
				Deps: func(_ string, d *actors.AgentDeps) { d.LoopBreakerRepeats = tc.repeats }})
			h.Prompt("main", "Work.")
			tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
			if tt.Kind != messages.TerminalCompleted || tt.LastAssistantMessage != "done" {
				t.Fatalf("terminal = %+v; journal:\n%s", tt, testkit.Describe(h.Events("main")))
			}
		})
	}
}

// TestLoopBreakerCountSurvivesCrash: the repeats before a crash still
// count after it: the breaker trips at the fourth execution overall.
func TestLoopBreakerCountSurvivesCrash(t *testing.T) {
	steps := echoRounds(`{"text":"x"}`, `{"text":"x"}`, `{"text":"x"}`, `{"text":"x"}`)
	gate := make(chan struct{})
	steps[2].Gate = gate
	h := testkit.New(t, steps...)
	h.Prompt("main", "Loop.")
	for i := range 3 {
		if got := <-h.Provider.Called; got != i {
			t.Fatalf("round %d requested, want %d", got, i)
		}
	}
	h.Restart()
	close(gate)
	if f := failureOf(t, h, "main", 1); f.Code != "loop_breaker_tripped" {
		t.Fatalf("failure = %+v; journal:\n%s", f, testkit.Describe(h.Events("main")))
	}
	if n := len(h.Echo.Executions()); n != 4 {
		t.Fatalf("%d echo executions, want 4", n)
	}
}

// TestLoopBreakerInterjectResets: an operator interject spliced into the
// turn starts the count again: the same call repeated around it is not a
// loop (the operator may have asked for it).
func TestLoopBreakerInterjectResets(t *testing.T) {
	x := `{"text":"x"}`
	steps := echoRounds(x, x, x, x, x)
	gate := make(chan struct{})
	steps[2].Gate = gate
	h := testkit.New(t, steps...)
	h.Prompt("main", "Work.")
	for i := range 3 {
		if got := <-h.Provider.Called; got != i {
			t.Fatalf("round %d requested, want %d", got, i)
		}
	}
	h.Send(h.Envelope("main", "Echo x twice more.", messages.PriorityInterject))
	close(gate)
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.Kind != messages.TerminalCompleted || tt.LastAssistantMessage != "done" {
		t.Fatalf("terminal = %+v; journal:\n%s", tt, testkit.Describe(h.Events("main")))
	}
	if n := len(h.Echo.Executions()); n != 5 {
		t.Fatalf("%d echo executions, want 5", n)
	}
}
