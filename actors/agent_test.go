package actors_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/testkit"
)

func decode[T messages.Payload](t *testing.T, ev messages.Event) T {
	t.Helper()
	p, err := ev.Decode()
	if err != nil {
		t.Fatalf("decode %s: %v", ev.Type, err)
	}
	v, ok := p.(T)
	if !ok {
		t.Fatalf("event %d is %T, want %T", ev.Seq, p, v)
	}
	return v
}

func types(evs []messages.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = string(ev.Type)
	}
	return out
}

func TestTurnWithToolCall(t *testing.T) {
	h := testkit.New(t,
		testkit.Reply("Let me check.", testkit.Call("call_1", "echo", `{"text":"ping"}`)),
		testkit.Reply("The echo said ping."),
	)
	env := h.Prompt("main", "Echo ping, please.")
	term := h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))

	tt := decode[messages.TurnTerminal](t, term)
	if tt.Kind != messages.TerminalCompleted || tt.LastAssistantMessage != "The echo said ping." || tt.MessageID != env.ID {
		t.Fatalf("turn_terminal = %+v", tt)
	}
	brief := decode[messages.BriefRecorded](t, h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded)))
	if brief.Brief.Kind != messages.BriefResult || brief.Brief.Text != "The echo said ping." || brief.Brief.RelatedMessageID != env.ID {
		t.Fatalf("brief = %+v, want the final assistant text as the result", brief.Brief)
	}
	want := []string{
		"agent_created", "agent_state_changed", // created, awake_idle
		"message_admitted",
		"agent_state_changed", "message_processing_started", // awake_running
		"provider_round_completed", "assistant_round_recorded",
		"tool_call_started", "tool_executed",
		"provider_round_completed", "assistant_round_recorded",
		"turn_terminal", "brief_recorded",
		"working_memory_updated", "agent_state_changed", // the turn boundary's memory, awake_idle
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventAgentStateChanged, 3))
	if got := types(h.Events("main")); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("journal =\n%v\nwant\n%v", got, want)
	}
	if got := h.Echo.Executions(); len(got) != 1 || got[0] != "ping" {
		t.Fatalf("echo executions = %v, want [ping]", got)
	}
	// The second request carries the conversation so far: the prompt with
	// its provenance, the assistant round, and the tool receipt.
	reqs := h.Provider.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d provider requests, want 2", len(reqs))
	}
	conv := reqs[1].Conversation
	if len(conv) != 3 || conv[0].Kind != providers.ItemMessage || conv[0].Authority != messages.AuthorityOperatorInstruction ||
		conv[1].Kind != providers.ItemAssistant || conv[2].Kind != providers.ItemToolResult || conv[2].Text != "echo: ping" {
		t.Fatalf("second request conversation = %+v", conv)
	}
	if reqs[0].Frame.Cache.PromptCacheKey != reqs[1].Frame.Cache.PromptCacheKey {
		t.Errorf("promptCacheKey changed within a turn: %q then %q", reqs[0].Frame.Cache.PromptCacheKey, reqs[1].Frame.Cache.PromptCacheKey)
	}
	st, err := h.Runtime.State(context.Background(), "main")
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != messages.StatusAwakeIdle || st.TotalModelRounds != 2 || st.TotalInputTokens != 200 || st.Turn != nil {
		t.Fatalf("state = status %s rounds %d input tokens %d turn %v", st.Status, st.TotalModelRounds, st.TotalInputTokens, st.Turn)
	}
}

func TestAdmissionRefusals(t *testing.T) {
	h := testkit.New(t, testkit.Reply("ok"))
	ctx := context.Background()
	h.Prompt("main", "hello")
	h.WaitEvent("main", testkit.NthOfType(messages.EventAgentStateChanged, 3)) // back to awake_idle
	before := len(h.Events("main"))

	bad := h.Envelope("main", "", messages.PriorityNormal) // empty text body
	_, err := h.Runtime.Admit(ctx, bad)
	var fe *messages.FieldError
	if !errors.As(err, &fe) || fe.Field != "body.text" {
		t.Fatalf("admit with an empty body = %v, want a field error naming body.text", err)
	}
	if _, err := h.Runtime.Admit(ctx, messages.MessageEnvelope{AgentID: "../etc"}); err == nil {
		t.Fatal("admit to agent ../etc succeeded")
	}
	if after := len(h.Events("main")); after != before {
		t.Fatalf("refused admissions wrote %d events", after-before)
	}

	// The same envelope twice is admitted once.
	env := h.Envelope("main", "again", messages.PriorityNormal)
	first := h.Send(env)
	second := h.Send(env)
	if first.Duplicate || !second.Duplicate {
		t.Fatalf("duplicate flags = %v, %v; want false, true", first.Duplicate, second.Duplicate)
	}
	n := 0
	for _, ev := range h.Events("main") {
		if ev.Type == messages.EventMessageAdmitted && decode[messages.MessageAdmitted](t, ev).Envelope.ID == env.ID {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("envelope admitted %d times, want 1", n)
	}
}

func TestStoppedBoundary(t *testing.T) {
	h := testkit.New(t, testkit.Reply("first"), testkit.Reply("after resume"))
	ctx := context.Background()
	h.Prompt("main", "one")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))

	if st, err := h.Runtime.Control(ctx, "main", actors.OpStop, ""); err != nil || st != messages.StatusStopped {
		t.Fatalf("stop = %s, %v", st, err)
	}
	if _, err := h.Runtime.Admit(ctx, h.Envelope("main", "two", messages.PriorityNormal)); !errors.Is(err, actors.ErrAgentStopped) {
		t.Fatalf("prompt to a stopped agent = %v, want ErrAgentStopped", err)
	}
	if _, err := h.Runtime.Control(ctx, "main", actors.OpWake, ""); !errors.Is(err, actors.ErrResumeRequired) {
		t.Fatalf("wake on a stopped agent = %v, want ErrResumeRequired", err)
	}
	// stopped is durable: it survives a restart.
	h.Restart()
	if st, _ := h.Runtime.State(ctx, "main"); st.Status != messages.StatusStopped {
		t.Fatalf("status after restart = %s, want stopped", st.Status)
	}
	if st, err := h.Runtime.Control(ctx, "main", actors.OpResume, ""); err != nil || st != messages.StatusAwakeIdle {
		t.Fatalf("resume = %s, %v", st, err)
	}
	h.Prompt("main", "two")
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2)))
	if tt.LastAssistantMessage != "after resume" {
		t.Fatalf("turn after resume = %+v", tt)
	}
}

func TestProviderFailureBecomesFailureBrief(t *testing.T) {
	h := testkit.New(t, testkit.Fail(providers.KindAuth, "invalid API key"))
	h.Prompt("main", "hello")
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.Kind != messages.TerminalAborted || tt.Closure.Outcome != messages.OutcomeFailed {
		t.Fatalf("turn_terminal = %+v, want aborted/failed", tt)
	}
	brief := decode[messages.BriefRecorded](t, h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded)))
	if brief.Brief.Kind != messages.BriefFailure || !strings.Contains(brief.Brief.Text, "auth") {
		t.Fatalf("brief = %+v, want a failure brief naming the auth failure", brief.Brief)
	}
	rerr := decode[messages.RuntimeError](t, h.WaitEvent("main", testkit.OfType(messages.EventRuntimeError)))
	if rerr.Failure.Category != messages.FailureTransport || rerr.Failure.Code != string(providers.KindAuth) {
		t.Fatalf("runtime_error = %+v", rerr.Failure)
	}
}

func TestBadToolCallsBecomeCorrectableErrors(t *testing.T) {
	h := testkit.New(t,
		testkit.Reply("", testkit.Call("c1", "no_such_tool", `{}`), testkit.Call("c2", "echo", `{"text":`)),
		testkit.Reply("I will fix my call."),
	)
	h.Prompt("main", "go")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	var receipts []string
	for _, ev := range h.Events("main") {
		if ev.Type == messages.EventToolExecuted {
			te := decode[messages.ToolExecuted](t, ev)
			if te.Status != messages.ToolError {
				t.Errorf("%s status = %s, want error", te.CallID, te.Status)
			}
			receipts = append(receipts, te.Receipt)
		}
	}
	if len(receipts) != 2 || !strings.Contains(receipts[0], "unknown_tool") || !strings.Contains(receipts[0], "echo") ||
		!strings.Contains(receipts[1], "invalid_tool_input") {
		t.Fatalf("receipts = %q", receipts)
	}
	if n := len(h.Echo.Executions()); n != 0 {
		t.Fatalf("echo ran %d times with malformed arguments", n)
	}
	if last := h.Provider.Requests()[1].Conversation; !last[len(last)-1].IsError {
		t.Fatal("the model was not shown the error flag on the tool result")
	}
}

// TestPassivatedAgentReloads: an idle agent passivated to its snapshot
// drops its state and, on the next prompt, reloads it whole: the model
// sees the earlier turn.
func TestPassivatedAgentReloads(t *testing.T) {
	h := testkit.New(t, testkit.Reply("first answer"), testkit.Reply("second answer"))
	ctx := context.Background()
	h.Prompt("main", "first")
	h.WaitEvent("main", testkit.NthOfType(messages.EventAgentStateChanged, 3))
	if err := h.Runtime.PassivateIdle(ctx); err != nil {
		t.Fatal(err)
	}
	snap, ok, err := h.Store().LoadSnapshot(ctx, "main", persistence.LatestSnapshot())
	high, _ := h.Store().HighestSeq(ctx, "main")
	if err != nil || !ok || snap.Seq != high {
		t.Fatalf("snapshot after passivation = seq %d ok %v err %v, want seq %d", snap.Seq, ok, err, high)
	}
	h.Prompt("main", "second")
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2)))
	if tt.LastAssistantMessage != "second answer" {
		t.Fatalf("second turn = %+v", tt)
	}
	conv := h.Provider.Requests()[1].Conversation
	if len(conv) != 3 || conv[1].Text != "first answer" {
		t.Fatalf("after reload the model saw %+v, want the first turn then the new prompt", conv)
	}
	st, _ := h.Runtime.State(ctx, "main")
	if st.Kind != messages.AgentDefault {
		t.Errorf("agent main kind = %q, want default", st.Kind)
	}
}

// TestGoldenTurnStream pins the journal of a one-tool turn, ids and times
// normalized: a change to what a turn writes shows up as a diff here.
func TestGoldenTurnStream(t *testing.T) {
	h := testkit.New(t,
		testkit.Reply("Let me check.", testkit.Call("call_1", "echo", `{"text":"ping"}`)),
		testkit.Reply("The echo said ping."),
	)
	h.Prompt("main", "Echo ping, please.")
	h.WaitEvent("main", testkit.NthOfType(messages.EventAgentStateChanged, 3))
	testkit.CheckGolden(t, "turn_with_tool", h.Events("main"))
}

// TestGracefulShutdownKeepsStatus: a clean runtime shutdown is not a stop:
// agents come back with their status and their queued work.
func TestGracefulShutdownKeepsStatus(t *testing.T) {
	h := testkit.New(t, testkit.Reply("", testkit.Call("s1", actors.SleepToolName, `{}`)))
	ctx := context.Background()
	h.Prompt("main", "rest")
	h.WaitEvent("main", testkit.OfType(messages.EventAgentSlept))
	h.Prompt("other", "hello") // no script step left for it: its turn fails, it stays awake
	h.WaitEvent("other", testkit.OfType(messages.EventTurnTerminal))
	h.GracefulRestart()
	if st, _ := h.Runtime.State(ctx, "main"); st.Status != messages.StatusAsleep {
		t.Fatalf("main after a graceful restart: %s, want asleep", st.Status)
	}
	for _, ev := range h.Events("main") {
		if ev.Type == messages.EventAgentStateChanged && decode[messages.AgentStateChanged](t, ev).To == messages.StatusStopped {
			t.Fatal("the shutdown wrote a stopped status")
		}
	}
}

// TestPromptFrame: the frame has the stable identity block (a cache
// breakpoint) and a turn-scoped context block; the cache key stays the same
// across turns while the context fingerprint changes.
func TestPromptFrame(t *testing.T) {
	h := testkit.New(t, testkit.Reply("one"), testkit.Reply("two"))
	h.Prompt("main", "first")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	h.Prompt("main", "second")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	r := h.Provider.Requests()
	f0, f1 := r[0].Frame, r[1].Frame
	if f0.SystemPrompt != "You are a test agent." || len(f0.SystemBlocks) != 1 || !f0.SystemBlocks[0].CacheBreakpoint ||
		!strings.Contains(f0.SystemBlocks[0].Text, `agent "main"`) || len(f0.ContextBlocks) != 1 {
		t.Fatalf("frame = %+v", f0)
	}
	if f0.Cache.PromptCacheKey != f1.Cache.PromptCacheKey {
		t.Errorf("promptCacheKey changed between ordinary turns")
	}
	if f0.Cache.ContextFingerprint == f1.Cache.ContextFingerprint {
		t.Errorf("contextFingerprint did not change with the context")
	}
}

// TestRecoverLeavesSettledAgentsDormant: after a restart only agents with
// open facts are activated; a settled agent stays dormant (its snapshot is
// current) and wakes on its first message with its history intact.
func TestRecoverLeavesSettledAgentsDormant(t *testing.T) {
	h := testkit.New(t, testkit.Reply("one"), testkit.Reply("two"))
	ctx := context.Background()
	h.Prompt("settled", "hello")
	h.WaitEvent("settled", testkit.NthOfType(messages.EventAgentStateChanged, 3))
	if _, err := h.Runtime.Control(ctx, "busy", actors.OpPause, ""); err != nil {
		t.Fatal(err)
	}
	h.Prompt("busy", "queued while paused") // an open fact: a queued message

	active := h.GracefulRestart()
	if want := []string{"busy"}; !reflect.DeepEqual(active, want) || !reflect.DeepEqual(h.Runtime.Active(), want) {
		t.Fatalf("after restart: open %v, active %v; want only [busy]", active, h.Runtime.Active())
	}
	h.Prompt("settled", "again")
	h.WaitEvent("settled", testkit.NthOfType(messages.EventTurnTerminal, 2))
	if conv := h.Provider.Requests()[1].Conversation; len(conv) != 3 || conv[1].Text != "one" {
		t.Fatalf("the woken agent saw %+v, want its first turn then the new prompt", conv)
	}
}

// TestUnreadableSnapshotFallsBackToJournal: a snapshot is a cache; one that
// cannot be decoded is skipped and the agent rebuilt from its whole journal.
func TestUnreadableSnapshotFallsBackToJournal(t *testing.T) {
	h := testkit.New(t, testkit.Reply("one"), testkit.Reply("two"))
	ctx := context.Background()
	h.Prompt("main", "hello")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	high, err := h.Store().HighestSeq(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	bad := persistence.Snapshot{Stream: "main", Seq: high, Timestamp: h.Clock.Now(), Data: []byte(`{"not":"a snapshot"}`)}
	if err := h.Store().SaveSnapshot(ctx, bad); err != nil {
		t.Fatal(err)
	}
	h.Restart()
	if high, err = h.Store().HighestSeq(ctx, "main"); err != nil {
		t.Fatal(err)
	}
	st, err := h.Runtime.State(ctx, "main")
	if err != nil || st.LastSeq != high || st.Status != messages.StatusAwakeIdle {
		t.Fatalf("State = %+v, %v; want seq %d, awake_idle", st, err, high)
	}
	h.Prompt("main", "again")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	if conv := h.Provider.Requests()[1].Conversation; len(conv) != 3 || conv[1].Text != "one" {
		t.Fatalf("the rebuilt agent saw %+v, want its first turn then the new prompt", conv)
	}
}
