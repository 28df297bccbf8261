package actors_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestConversationCompaction: an agent whose conversation passes the
// trigger compacts it before its next turn: the model then sees the
// runtime's summary first and only the newest exchanges, never a tool
// result without its call; a crash and replay rebuild the same state.
func TestConversationCompaction(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: func(home string, d *actors.AgentDeps) {
		withTools(t)(home, d)
		d.Compaction = actors.Compaction{TriggerTokens: 400, KeepTokens: 200}
	}})
	const turns = 6
	for i := 1; i <= turns; i++ {
		h.Provider.Script(
			testkit.Reply("", testkit.Call(fmt.Sprintf("c%d", i), "ExecCommand", fmt.Sprintf(`{"cmd":"echo turn %d"}`, i))),
			testkit.Reply(fmt.Sprintf("Turn %d done.", i)),
		)
		h.Prompt("main", fmt.Sprintf("Task %d: %s", i, strings.Repeat("details ", 60)))
		h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, i))
	}

	var compactions []messages.ConversationCompacted
	for _, ev := range h.Events("main") {
		if ev.Type == messages.EventConversationCompacted {
			compactions = append(compactions, decode[messages.ConversationCompacted](t, ev))
		}
	}
	if len(compactions) == 0 {
		t.Fatal("no conversation_compacted in the journal")
	}
	last := compactions[len(compactions)-1]
	if !strings.Contains(last.Summary, "Task 1:") || !strings.Contains(last.Summary, "you called ExecCommand") {
		t.Errorf("summary = %q, want the first task and its command", last.Summary)
	}

	reqs := h.Provider.Requests()
	req := reqs[len(reqs)-1]
	first := req.Conversation[0]
	if first.Origin == nil || first.Origin.Kind != messages.OriginSystem || first.Authority != messages.AuthorityExternalEvidence ||
		!strings.Contains(first.Text, "compacted by the runtime") || !strings.Contains(first.Text, last.Summary) {
		t.Fatalf("the last request starts with %+v, want the summary", first)
	}
	if strings.Contains(fmt.Sprint(req.Conversation[1:]), "Task 1:") {
		t.Error("the compacted first task is still in view")
	}
	if req.Conversation[1].Kind == providers.ItemToolResult {
		t.Errorf("the kept conversation starts with a tool result: %+v", req.Conversation[1])
	}
	calls := map[string]bool{}
	for _, it := range req.Conversation {
		for _, c := range it.ToolCalls {
			calls[c.ID] = true
		}
		if it.Kind == providers.ItemToolResult && !calls[it.CallID] {
			t.Errorf("tool result %s without its call in view", it.CallID)
		}
	}

	before, err := h.Runtime.State(context.Background(), "main")
	if err != nil {
		t.Fatal(err)
	}
	h.Restart()
	after, err := h.Runtime.State(context.Background(), "main")
	if err != nil {
		t.Fatal(err)
	}
	if after.ContextSummary != before.ContextSummary || after.CompactedItems != before.CompactedItems ||
		len(after.Conversation) != len(before.Conversation) || after.CompactedItems != last.TotalCompacted {
		t.Fatalf("after replay: %d items, %d compacted; before: %d items, %d compacted",
			len(after.Conversation), after.CompactedItems, len(before.Conversation), before.CompactedItems)
	}
	ci := after.Context()
	if ci.CompactedItems != last.TotalCompacted || ci.ConversationItems != len(after.Conversation) || ci.SummaryChars != len(last.Summary) ||
		ci.CompactedRounds == 0 || ci.EstimatedTokens <= 0 || ci.EstimatedTokens > 400+len(last.Summary) {
		t.Errorf("context accounting = %+v", ci)
	}
}

// TestCompactionInALongTurn: a single turn of many tool rounds passes the
// trigger; the compaction between two rounds keeps the turn's assignment
// in view, right after the summary.
func TestCompactionInALongTurn(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: func(home string, d *actors.AgentDeps) {
		withTools(t)(home, d)
		d.Compaction = actors.Compaction{TriggerTokens: 1500, KeepTokens: 600}
	}})
	for i := range 12 {
		h.Provider.Script(testkit.Reply("", testkit.Call(fmt.Sprintf("r%d", i), "ExecCommand",
			fmt.Sprintf(`{"cmd":"echo check %d; head -c 1600 /dev/zero | tr '\\0' x"}`, i))))
	}
	h.Provider.Script(testkit.Reply("All rounds done."))
	env := h.Prompt("main", "Assignment: run the twelve checks and report.")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))

	var pinned int
	for _, ev := range h.Events("main") {
		if ev.Type == messages.EventConversationCompacted && decode[messages.ConversationCompacted](t, ev).PinnedMessageID == env.ID {
			pinned++
		}
	}
	if pinned == 0 {
		t.Fatal("no compaction inside the turn pinned its message")
	}
	reqs := h.Provider.Requests()
	last := reqs[len(reqs)-1].Conversation
	if len(last) < 2 || last[1].MessageID != env.ID || !strings.Contains(last[0].Text, "compacted by the runtime") {
		t.Fatalf("the last round sees %d items, the second %+v; want the summary, then the assignment", len(last), last[1])
	}
	if n := len(last); n > 12 {
		t.Errorf("the last round still sees %d items", n)
	}
}
