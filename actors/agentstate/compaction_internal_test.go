package agentstate

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

// exchange is one turn of a conversation: a message, an assistant round
// with a tool call, its result and the closing text; text sizes it.
func exchange(n int, text string) []llm.Item {
	op := messages.OperatorOrigin("alice")
	id := "call_" + string(rune('a'+n))
	return []llm.Item{
		{Kind: llm.ItemMessage, MessageID: "msg_" + string(rune('a'+n)), Origin: &op, Authority: messages.AuthorityOperatorInstruction, Text: text},
		{Kind: llm.ItemAssistant, Text: "Checking.", ToolCalls: []messages.ToolCall{{ID: id, Name: "ExecCommand", Arguments: json.RawMessage(`{"cmd":"make"}`)}}},
		{Kind: llm.ItemToolResult, CallID: id, ToolName: "ExecCommand", Text: "build ok\nmore lines", IsError: n%2 == 1},
		{Kind: llm.ItemAssistant, Text: "Done " + string(rune('a'+n)) + "."},
	}
}

func conversationOf(turns int, size int) []llm.Item {
	var conv []llm.Item
	for i := range turns {
		conv = append(conv, exchange(i, "Turn "+string(rune('a'+i))+" "+strings.Repeat("x", size))...)
	}
	return conv
}

func TestKeepFromNeverSplitsABatch(t *testing.T) {
	conv := conversationOf(5, 400) // each exchange ≈ 170 estimated tokens
	for keep := 0; keep <= 1000; keep += 10 {
		cut := keepFrom(conv, keep)
		if cut < len(conv) && conv[cut].Kind == llm.ItemToolResult {
			t.Fatalf("keep %d: cut before a tool result (item %d)", keep, cut)
		}
		if cut < len(conv) && estimateTokens(conv[cut:]) > keep {
			t.Fatalf("keep %d: kept %d estimated tokens", keep, estimateTokens(conv[cut:]))
		}
		for j := 0; j < cut; j++ { // no earlier cut point fits
			if cuttable(conv[j]) && estimateTokens(conv[j:]) <= keep {
				t.Fatalf("keep %d: cut %d, but %d fits too", keep, cut, j)
			}
		}
	}
	if cut := keepFrom(conv, 10_000); cut != 0 {
		t.Errorf("keep all: cut %d, want 0", cut)
	}
	if cut := keepFrom(conv, 5); cut != len(conv) {
		t.Errorf("keep almost nothing: cut %d, want everything (%d)", cut, len(conv))
	}
}

func TestCompaction(t *testing.T) {
	s := &State{Conversation: conversationOf(6, 400)}
	cfg := Compaction{TriggerTokens: 2000, KeepTokens: 400}
	if _, ok := s.Compaction(cfg); ok {
		t.Fatal("compacted below the trigger")
	}
	cfg.TriggerTokens = 800
	cc, ok := s.Compaction(cfg)
	if !ok || cc.DroppedItems != keepFrom(s.Conversation, 400) || cc.TotalCompacted != uint64(cc.DroppedItems) ||
		cc.PinnedMessageID != "" || cc.TokensAfter >= cc.TokensBefore || cc.TokensAfter > 400 {
		t.Fatalf("compaction = %+v, %v", cc, ok)
	}
	for _, want := range []string{
		"- [from operator alice; authority operator_instruction; message msg_a] Turn a xxx",
		`- you called ExecCommand({"cmd":"make"})`,
		"  → ExecCommand ok: build ok",
		"  → ExecCommand error: build ok",
		"- you: Done c.",
	} {
		if !strings.Contains(cc.Summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, cc.Summary)
		}
	}
	if strings.Contains(cc.Summary, "Done f.") {
		t.Errorf("summary has the newest exchange:\n%s", cc.Summary)
	}

	n := len(s.Conversation)
	s.applyCompaction(cc)
	if len(s.Conversation) != n-cc.DroppedItems || s.CompactedItems != cc.TotalCompacted || s.Conversation[0].Kind == llm.ItemToolResult {
		t.Fatalf("after compaction: %d of %d items, first %s, %d compacted", len(s.Conversation), n, s.Conversation[0].Kind, s.CompactedItems)
	}
	item, ok := s.SummaryItem()
	if !ok || item.Authority != messages.AuthorityExternalEvidence || item.Origin.Kind != messages.OriginSystem ||
		!strings.Contains(item.Text, fmt.Sprintf("%d items no longer shown", cc.TotalCompacted)) || !strings.Contains(item.Text, cc.Summary) {
		t.Fatalf("summary item = %+v", item)
	}

	// A second compaction keeps the first one's summary ahead of its own.
	s.Conversation = append(s.Conversation, conversationOf(4, 400)...)
	cc2, ok := s.Compaction(cfg)
	if !ok || cc2.TotalCompacted != cc.TotalCompacted+uint64(cc2.DroppedItems) || !strings.HasPrefix(cc2.Summary, cc.Summary) {
		t.Fatalf("second compaction = %+v", cc2)
	}
	if _, ok := s.Compaction(Compaction{TriggerTokens: -1}); ok {
		t.Error("compacted with compaction off")
	}
}

// TestCompactionPinsTheTurnMessage: in a long turn the cut passes the
// turn's own message, which stays in view, first after the summary.
func TestCompactionPinsTheTurnMessage(t *testing.T) {
	conv := exchange(0, "Assignment: "+strings.Repeat("a", 400))
	for i := range 10 { // a long turn: many tool rounds
		id := fmt.Sprintf("call_%d", i)
		conv = append(conv,
			llm.Item{Kind: llm.ItemAssistant, ToolCalls: []messages.ToolCall{{ID: id, Name: "ExecCommand", Arguments: json.RawMessage(`{"cmd":"ls"}`)}}},
			llm.Item{Kind: llm.ItemToolResult, CallID: id, ToolName: "ExecCommand", Text: strings.Repeat("out ", 100)})
	}
	s := &State{Conversation: conv, Turn: &TurnState{ID: "turn_1", MessageID: "msg_a"}}
	cc, ok := s.Compaction(Compaction{TriggerTokens: 600, KeepTokens: 300})
	if !ok || cc.PinnedMessageID != "msg_a" || cc.TotalCompacted != uint64(cc.DroppedItems-1) || strings.Contains(cc.Summary, "Assignment") {
		t.Fatalf("compaction = %+v, %v; want msg_a pinned and left out of the summary", cc, ok)
	}
	s.applyCompaction(cc)
	if s.Conversation[0].MessageID != "msg_a" || s.Conversation[1].Kind != llm.ItemAssistant || len(s.Conversation) != len(conv)-cc.DroppedItems+1 {
		t.Fatalf("after compaction: %+v", s.Conversation[:2])
	}
	// Compacting again keeps it pinned, once.
	s.Conversation = append(s.Conversation, conv[4:14]...)
	cc2, ok := s.Compaction(Compaction{TriggerTokens: 600, KeepTokens: 300})
	if !ok || cc2.PinnedMessageID != "msg_a" {
		t.Fatalf("second compaction = %+v, %v", cc2, ok)
	}
	s.applyCompaction(cc2)
	n := 0
	for _, it := range s.Conversation {
		if it.MessageID == "msg_a" {
			n++
		}
	}
	if n != 1 || s.Conversation[0].MessageID != "msg_a" {
		t.Fatalf("the turn message is in view %d times after two compactions", n)
	}
}

func TestMergeSummaryBound(t *testing.T) {
	var lines []string
	for i := range 100 {
		lines = append(lines, "- line "+strings.Repeat("y", 30)+string(rune('A'+i%26)))
	}
	s := mergeSummary("", strings.Join(lines, "\n"), 1000)
	if len(s) > 1000 || !strings.HasPrefix(s, "… (older history no longer summarized)\n- line") || !strings.HasSuffix(s, lines[99]) {
		t.Fatalf("bounded summary (%d chars):\n%s", len(s), s)
	}
	if got := mergeSummary("a", "b", 1000); got != "a\nb" {
		t.Errorf("mergeSummary(a, b) = %q", got)
	}
}

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{"\n\n  hello \nworld": "hello", "": "(empty)", strings.Repeat("é", 300): strings.Repeat("é", 199) + "…"} {
		if got := firstLine(in, 200); got != want {
			t.Errorf("firstLine(%.20q) = %.20q, want %.20q", in, got, want)
		}
	}
}
