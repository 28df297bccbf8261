package actors_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/testkit"
)

// checkToolPairing applies the rule OpenAI-conformant servers enforce on a
// conversation: an assistant round with tool calls is followed at once by
// exactly one result for each of its calls, and a result answers a call of
// the round just before it.
func checkToolPairing(conv []providers.Item) error {
	var open []string // calls of the last assistant round not yet answered
	answering := false
	for i, it := range conv {
		switch {
		case it.Kind == providers.ItemToolResult:
			j := slices.Index(open, it.CallID)
			if !answering || j < 0 {
				return fmt.Errorf("item %d: result for %s answers no call of the round before it", i, it.CallID)
			}
			open = slices.Delete(open, j, j+1)
		case len(open) > 0:
			return fmt.Errorf("item %d (%s): calls %v have no result", i, it.Kind, open)
		default:
			answering = it.Kind == providers.ItemAssistant && len(it.ToolCalls) > 0
			open = nil
			for _, c := range it.ToolCalls {
				open = append(open, c.ID)
			}
		}
	}
	if len(open) > 0 {
		return fmt.Errorf("the conversation ends with calls %v unanswered", open)
	}
	return nil
}

// closer closes a gate once, however many paths reach it.
type closer struct {
	once sync.Once
	ch   chan struct{}
}

func newCloser() *closer             { return &closer{ch: make(chan struct{})} }
func (c *closer) open()              { c.once.Do(func() { close(c.ch) }) }
func gateOf(c *closer) chan struct{} { return c.ch }

// TestTurnEndsLeaveEveryCallAnswered: whatever ends a turn (interrupt,
// stop, pause, a panic of the agent, a crash of the runtime) at whatever step of a two-call
// batch, every call ends with exactly one result, right after its round,
// and every later request of the agent passes the rule an OpenAI server
// enforces.
func TestTurnEndsLeaveEveryCallAnswered(t *testing.T) {
	type step struct {
		name string
		// calls are the batch of the first round; modelGate holds the
		// second model round.
		calls      []messages.ToolCall
		holdModel2 bool
		// reach waits until the step is reached.
		reach func(t *testing.T, h *testkit.Harness, pause func())
	}
	started := func(id string) func(*testing.T, *testkit.Harness, func()) {
		return func(t *testing.T, h *testkit.Harness, _ func()) {
			h.WaitEvent("main", func(ev messages.Event) bool {
				return ev.Type == messages.EventToolCallStarted && strings.Contains(string(ev.Payload), `"`+id+`"`)
			})
		}
	}
	steps := []step{
		{name: "before the first call",
			calls: []messages.ToolCall{testkit.Call("c1", "echo", `{"text":"one"}`), testkit.Call("c2", "echo", `{"text":"two"}`)},
			reach: func(t *testing.T, h *testkit.Harness, pause func()) {
				// Paused while the model answers: the round is recorded and
				// no call starts.
				pause()
				h.WaitEvent("main", testkit.OfType(messages.EventAssistantRoundRecorded))
			}},
		{name: "during an inline call",
			calls: []messages.ToolCall{testkit.Call("c1", "echo", `{"text":"one"}`), testkit.Call("c2", "echo", `{"text":"two"}`)},
			reach: started("c1")},
		{name: "between the calls of a batch",
			calls: []messages.ToolCall{testkit.Call("c1", "no_such_tool", `{}`), testkit.Call("c2", "echo", `{"text":"two"}`)},
			reach: started("c2")},
		{name: "after the last result",
			calls:      []messages.ToolCall{testkit.Call("c1", "no_such_tool", `{}`), testkit.Call("c2", "no_such_tool", `{}`)},
			holdModel2: true,
			reach: func(t *testing.T, h *testkit.Harness, _ func()) {
				for <-h.Provider.Called != 1 {
				}
			}},
	}
	ctx := context.Background()
	endings := []struct {
		name string
		end  func(t *testing.T, h *testkit.Harness, release func())
	}{
		{"interrupt", func(t *testing.T, h *testkit.Harness, release func()) {
			if _, err := h.Runtime.Interrupt(ctx, "main", "", ""); err != nil {
				t.Fatal(err)
			}
			release()
			resume(t, h)
		}},
		{"stop", func(t *testing.T, h *testkit.Harness, release func()) {
			if _, err := h.Runtime.Control(ctx, "main", actors.OpStop, ""); err != nil {
				t.Fatal(err)
			}
			release()
			resume(t, h)
		}},
		{"pause", func(t *testing.T, h *testkit.Harness, release func()) {
			if _, err := h.Runtime.Control(ctx, "main", actors.OpPause, ""); err != nil {
				t.Fatal(err)
			}
			release()
			resume(t, h)
		}},
		{"agent panic", func(t *testing.T, h *testkit.Harness, release func()) {
			var once sync.Once
			h.SetFault(func(_, point string) {
				if point == "*actors.stepDone" {
					once.Do(func() { panic("injected: the agent crashes on its next step") })
				}
			})
			release()
			resume(t, h)
		}},
		{"crash", func(t *testing.T, h *testkit.Harness, release func()) {
			h.Restart()
			release()
			resume(t, h)
		}},
	}
	for _, st := range steps {
		for _, en := range endings {
			t.Run(st.name+"/"+en.name, func(t *testing.T) {
				model1, model2, tool := newCloser(), newCloser(), newCloser()
				h := testkit.New(t)
				h.Echo.Gate = gateOf(tool)
				second := testkit.Reply("Done.")
				if st.holdModel2 {
					second.Gate = gateOf(model2)
				}
				first := testkit.Reply("Working.", st.calls...)
				first.Gate = gateOf(model1)
				h.Provider.Script(first, second, testkit.Reply("Done."), testkit.Reply("Done."))
				release := func() { model1.open(); model2.open(); tool.open() }
				t.Cleanup(release)
				h.Prompt("main", "Do the batch.")
				if st.name != "before the first call" {
					model1.open()
				}
				st.reach(t, h, func() {
					if _, err := h.Runtime.Control(ctx, "main", actors.OpPause, ""); err != nil {
						t.Fatal(err)
					}
					model1.open()
				})
				en.end(t, h, release)

				next := h.Prompt("main", "Next.")
				h.WaitEvent("main", func(ev messages.Event) bool {
					return ev.Type == messages.EventTurnTerminal && strings.Contains(string(ev.Payload), next.ID)
				})
				for i, req := range h.Provider.Requests() {
					if err := checkToolPairing(req.Conversation); err != nil {
						t.Errorf("request %d would be refused: %v", i, err)
					}
				}
				results, receipts := map[string]int{}, map[string]string{}
				for _, ev := range h.Events("main") {
					if ev.Type == messages.EventToolExecuted {
						te := decode[messages.ToolExecuted](t, ev)
						results[te.CallID]++
						receipts[te.CallID] = te.Receipt
					}
				}
				if st.name == "during an inline call" && en.name == "interrupt" {
					if r := receipts["c1"]; !strings.Contains(r, "interrupted before this call finished (the operator interrupted the turn)") {
						t.Errorf("the running call's result = %q", r)
					}
					if r := receipts["c2"]; !strings.Contains(r, "not run: the turn ended before this call started") {
						t.Errorf("the call not started = %q", r)
					}
				}
				for _, c := range st.calls {
					if results[c.ID] != 1 {
						t.Errorf("call %s has %d results, want 1", c.ID, results[c.ID])
					}
				}
				state, err := h.Runtime.State(ctx, "main")
				if err != nil {
					t.Fatal(err)
				}
				if err := checkToolPairing(state.Conversation); err != nil {
					t.Errorf("the conversation after the turn: %v", err)
				}
			})
		}
	}
}

// resume brings the agent back to work after a pause or a stop.
func resume(t *testing.T, h *testkit.Harness) {
	t.Helper()
	if _, err := h.Runtime.Control(context.Background(), "main", actors.OpResume, ""); err != nil {
		t.Fatal(err)
	}
}

// TestBrokenConversationRepairedOnLoad: a journal written by a build that
// ended turns without answering their calls loads, and the agent journals
// an interrupted result for each such call, right after its round, before
// it asks the model anything; a replay rebuilds the same conversation.
func TestBrokenConversationRepairedOnLoad(t *testing.T) {
	ctx := context.Background()
	h := testkit.New(t, testkit.Reply("unused"), testkit.Reply("Done."), testkit.Reply("Done again."))
	old := h.Envelope("legacy", "Do the batch.", messages.PriorityNormal)
	old.Normalize()
	old.AuthorityClass = messages.AuthorityOperatorInstruction
	turn := messages.NewID("turn")
	var evs []messages.Event
	for _, p := range []messages.Payload{
		messages.AgentCreated{AgentID: "legacy", Kind: messages.AgentNamed, Visibility: messages.VisibilityPublic,
			Ownership: messages.OwnershipSelfOwned, ProfilePreset: "public_named"},
		messages.AgentStateChanged{From: messages.StatusBooting, To: messages.StatusAwakeIdle, Reason: "created"},
		messages.MessageAdmitted{Envelope: old},
		messages.AgentStateChanged{From: messages.StatusAwakeIdle, To: messages.StatusAwakeRunning, Reason: "processing"},
		messages.MessageProcessingStarted{MessageID: old.ID, TurnID: turn, TurnIndex: 1},
		messages.AssistantRoundRecorded{TurnID: turn, Round: 1, Text: "Working.", ToolCalls: []messages.ToolCall{
			testkit.Call("c1", "echo", `{"text":"one"}`), testkit.Call("c2", "echo", `{"text":"two"}`)}},
		messages.ToolCallStarted{TurnID: turn, Round: 1, CallID: "c1", ToolName: "echo", Arguments: []byte(`{"text":"one"}`)},
		messages.RuntimeError{TurnID: turn, MessageID: old.ID, Failure: messages.Failure{Category: messages.FailureRuntime,
			Code: "turn_interrupted", Message: "interrupted", Summary: "interrupted"}},
		messages.TurnTerminal{TurnID: turn, MessageID: old.ID, TurnIndex: 1, Kind: messages.TerminalAborted,
			Closure: messages.Closure{Outcome: messages.OutcomeFailed}},
		messages.AgentStateChanged{From: messages.StatusAwakeRunning, To: messages.StatusAwakeIdle, Reason: "queue empty"},
	} {
		ev, err := messages.NewEvent("legacy", h.Clock.Now(), p)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	if _, err := h.Store().Append(ctx, "legacy", evs); err != nil {
		t.Fatal(err)
	}

	next := h.Prompt("legacy", "Next.")
	h.WaitEvent("legacy", func(ev messages.Event) bool {
		return ev.Type == messages.EventTurnTerminal && strings.Contains(string(ev.Payload), next.ID)
	})
	for i, req := range h.Provider.Requests() {
		if err := checkToolPairing(req.Conversation); err != nil {
			t.Errorf("request %d would be refused: %v", i, err)
		}
	}
	var repaired []messages.ToolExecuted
	for _, ev := range h.Events("legacy")[len(evs):] {
		if ev.Type == messages.EventToolExecuted {
			repaired = append(repaired, decode[messages.ToolExecuted](t, ev))
		}
	}
	if len(repaired) != 2 || repaired[0].CallID != "c1" || repaired[1].CallID != "c2" {
		t.Fatalf("repair results = %+v, want one for c1 and one for c2", repaired)
	}
	for _, r := range repaired {
		if r.Status != messages.ToolInterrupted || !strings.Contains(r.Receipt, "interrupted") {
			t.Errorf("repair result for %s = %s %q, want interrupted", r.CallID, r.Status, r.Receipt)
		}
	}
	live, err := h.Runtime.State(ctx, "legacy")
	if err != nil {
		t.Fatal(err)
	}
	kinds := make([]string, len(live.Conversation))
	for i, it := range live.Conversation {
		kinds[i] = string(it.Kind) + ":" + it.CallID
	}
	want := []string{"message:", "assistant:", "tool_result:c1", "tool_result:c2", "message:", "assistant:"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("conversation = %v, want %v", kinds, want)
	}

	// A replay of the journal rebuilds the same conversation and repairs
	// nothing more.
	h.Restart()
	replayed, err := h.Runtime.State(ctx, "legacy")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(live.Conversation, replayed.Conversation, func(a, b providers.Item) bool {
		return a.Kind == b.Kind && a.CallID == b.CallID && a.Text == b.Text
	}) {
		t.Fatalf("replayed conversation differs:\nlive     %+v\nreplayed %+v", live.Conversation, replayed.Conversation)
	}
	if n := testkit.CountOfType(h.Events("legacy"), messages.EventToolExecuted); n != 2 {
		t.Fatalf("%d tool results after the replay, want 2", n)
	}
}
