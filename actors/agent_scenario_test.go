package actors_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestInterjectReachesNextRequest: a trusted operator interject sent while
// a model round or a tool runs is spliced at the next safe point and is in
// the very next model request; a normal prompt sent meanwhile waits for its
// own turn; the running tool is not aborted.
func TestInterjectReachesNextRequest(t *testing.T) {
	for _, during := range []string{"model round", "tool"} {
		t.Run(during, func(t *testing.T) {
			gate := make(chan struct{})
			first := testkit.Reply("Checking.", testkit.Call("c1", "echo", `{"text":"ping"}`))
			if during == "model round" {
				first.Gate = gate
			}
			h := testkit.New(t, first, testkit.Reply("Done, and noted."), testkit.Reply("Later handled."))
			if during == "tool" {
				h.Echo.Gate = gate
			}

			h.Prompt("main", "Echo ping.")
			if during == "model round" {
				<-h.Provider.Called // the first model request is in flight
			} else {
				h.WaitEvent("main", testkit.OfType(messages.EventToolCallStarted))
			}
			interject := h.Envelope("main", "Also mention the weather.", messages.PriorityInterject)
			h.Send(interject)
			later := h.Envelope("main", "Later question.", messages.PriorityNormal)
			h.Send(later)
			close(gate)

			h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
			reqs := h.Provider.Requests()
			second := reqs[1].Conversation
			last := second[len(second)-1]
			if last.Kind != providers.ItemMessage || last.MessageID != interject.ID || last.Text != "Also mention the weather." {
				t.Fatalf("second request ends with %+v, want the interject", last)
			}
			for _, it := range second {
				if it.MessageID == later.ID {
					t.Fatal("the normal prompt joined the running turn")
				}
			}
			if got := h.Echo.Executions(); len(got) != 1 {
				t.Fatalf("echo executions = %v, want one uninterrupted run", got)
			}
			// The normal prompt became the next turn.
			var started []string
			for _, ev := range h.Events("main") {
				if ev.Type == messages.EventMessageProcessingStarted {
					started = append(started, decode[messages.MessageProcessingStarted](t, ev).MessageID)
				}
			}
			if len(started) != 3 || started[1] != interject.ID || started[2] != later.ID {
				t.Fatalf("processing order = %v", started)
			}
		})
	}
}

// TestBandOrder: queued messages run interject > next > normal >
// background, FIFO within a band; an interject from a webhook only jumps
// the queue.
func TestBandOrder(t *testing.T) {
	var steps []testkit.Step
	for range 6 {
		steps = append(steps, testkit.Reply("ok"))
	}
	h := testkit.New(t, steps...)
	ctx := context.Background()
	if _, err := h.Runtime.Control(ctx, "main", actors.OpPause, ""); err != nil {
		t.Fatal(err)
	}
	hook := h.Envelope("main", "", messages.PriorityInterject)
	hook.ID, hook.Kind, hook.Body = "hook", messages.KindWebhookEvent, messages.TextBody("build failed")
	hook.Origin = messages.WebhookOrigin("ci", "build")
	hook.DeliverySurface, hook.AdmissionContext = messages.SurfaceHTTPWebhook, messages.AdmissionExternalTriggerCapability
	send := []messages.MessageEnvelope{}
	for _, m := range []struct {
		id string
		p  messages.Priority
	}{{"bg1", messages.PriorityBackground}, {"n1", messages.PriorityNormal}, {"x1", messages.PriorityNext}, {"n2", messages.PriorityNormal}, {"bg2", messages.PriorityBackground}} {
		env := h.Envelope("main", m.id, m.p)
		env.ID = m.id
		send = append(send, env)
	}
	send = append(send, hook)
	for _, env := range send {
		h.Send(env)
	}
	if _, err := h.Runtime.Control(ctx, "main", actors.OpResume, ""); err != nil {
		t.Fatal(err)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 6))
	var order []string
	for _, ev := range h.Events("main") {
		if ev.Type == messages.EventMessageProcessingStarted {
			order = append(order, decode[messages.MessageProcessingStarted](t, ev).MessageID)
		}
	}
	if want := []string{"hook", "x1", "n1", "n2", "bg1", "bg2"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("processing order = %v, want %v", order, want)
	}
}

// crashPoints are the step boundaries of a one-tool turn. The simulated
// process dies right after the matching event is durable.
var crashPoints = []struct {
	name string
	// match builds a fresh (possibly stateful) matcher for each run.
	match func() func(messages.Event) bool
	// toolRuns is how many times the tool's side effect happens in all.
	toolRuns int
}{
	{"before the model call", func() func(messages.Event) bool { return testkit.OfType(messages.EventMessageProcessingStarted) }, 1},
	{"after the model round", func() func(messages.Event) bool { return testkit.NthOfType(messages.EventAssistantRoundRecorded, 1) }, 1},
	{"after tool_call_started", func() func(messages.Event) bool { return testkit.OfType(messages.EventToolCallStarted) }, 0},
	{"after tool_executed", func() func(messages.Event) bool { return testkit.OfType(messages.EventToolExecuted) }, 1},
	{"before the brief", func() func(messages.Event) bool { return testkit.NthOfType(messages.EventAssistantRoundRecorded, 2) }, 1},
}

func crashScript() []testkit.Step {
	return []testkit.Step{
		testkit.Reply("Let me check.", testkit.Call("c1", "echo", `{"text":"ping"}`)),
		testkit.Reply("Done."),
	}
}

// runCrashScenario runs one prompt to its brief, crashing at crash (nil:
// never) and restarting, and returns the settled state and the harness.
func runCrashScenario(t *testing.T, crash func(messages.Event) bool) (actors.AgentState, *testkit.Harness) {
	h := testkit.New(t, crashScript()...)
	if crash != nil {
		h.Store().CrashAfter(crash)
	}
	env := h.Envelope("main", "Echo ping.", messages.PriorityNormal)
	env.ID = "msg_fixed"
	h.Send(env)
	if crash != nil {
		<-h.Store().Died()
		if active := h.Restart(); !reflect.DeepEqual(active, []string{"main"}) {
			t.Fatalf("Recover activated %v, want [main]", active)
		}
	}
	h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))
	h.WaitEvent("main", testkit.NthOfType(messages.EventAgentStateChanged, 3))
	st, err := h.Runtime.State(context.Background(), "main")
	if err != nil {
		t.Fatal(err)
	}
	return st, h
}

// TestCrashAtEveryStepBoundary: a crash at each step boundary, then a
// restart with no outside request, ends in the transcript and state of an
// uninterrupted run, with no tool executed twice and no extra model call.
// A call whose start was durable but whose result was not is shown to the
// model as interrupted instead of being re-run.
func TestCrashAtEveryStepBoundary(t *testing.T) {
	want, _ := runCrashScenario(t, nil)
	for _, cp := range crashPoints {
		t.Run(cp.name, func(t *testing.T) {
			got, h := runCrashScenario(t, cp.match())
			if runs := len(h.Echo.Executions()); runs != cp.toolRuns {
				t.Errorf("tool side effects = %d, want %d", runs, cp.toolRuns)
			}
			if n := len(h.Provider.Requests()); n != 2 {
				t.Errorf("%d model requests, want 2 (recovery made extra calls)", n)
			}
			wantConv := want.Conversation
			if cp.toolRuns == 0 {
				wantConv = append([]providers.Item(nil), want.Conversation...)
				wantConv[2].Text, wantConv[2].IsError = got.Conversation[2].Text, true
				if got.Conversation[2].Text == want.Conversation[2].Text {
					t.Errorf("an interrupted call was reported as completed: %q", got.Conversation[2].Text)
				}
			}
			if !reflect.DeepEqual(got.Conversation, wantConv) {
				t.Errorf("conversation =\n%+v\nwant\n%+v", got.Conversation, wantConv)
			}
			if got.Status != want.Status || got.TotalModelRounds != want.TotalModelRounds || got.TurnIndex != want.TurnIndex ||
				got.Queue.Len() != 0 || got.Turn != nil || !reflect.DeepEqual(got.LastClosure, want.LastClosure) {
				t.Errorf("state = status %s rounds %d turn %d queue %d closure %+v; want status %s rounds %d turn %d closure %+v",
					got.Status, got.TotalModelRounds, got.TurnIndex, got.Queue.Len(), got.LastClosure,
					want.Status, want.TotalModelRounds, want.TurnIndex, want.LastClosure)
			}
		})
	}
}

// TestQueuedWorkResumesAfterRestart: messages acknowledged before a crash
// are processed after the restart without any outside request.
func TestQueuedWorkResumesAfterRestart(t *testing.T) {
	gate := make(chan struct{})
	first := testkit.Reply("first done")
	first.Gate = gate
	h := testkit.New(t, first, testkit.Reply("second done"))
	a := h.Prompt("main", "first")
	<-h.Provider.Called // the first turn is in its model round
	b := h.Prompt("main", "second")
	close(gate) // a reply arriving after the crash must change nothing
	h.Store().Crash()
	if active := h.Restart(); !reflect.DeepEqual(active, []string{"main"}) {
		t.Fatalf("Recover activated %v, want [main]", active)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	var settled []string
	for _, ev := range h.Events("main") {
		if ev.Type == messages.EventTurnTerminal {
			settled = append(settled, decode[messages.TurnTerminal](t, ev).MessageID)
		}
	}
	if !reflect.DeepEqual(settled, []string{a.ID, b.ID}) {
		t.Fatalf("settled turns = %v, want [%s %s]", settled, a.ID, b.ID)
	}
}
