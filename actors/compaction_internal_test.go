package actors

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// exchange is one turn of a conversation: a message, an assistant round
// with a tool call, its result and the closing text; text sizes it.
func exchange(n int, text string) []providers.Item {
	op := messages.OperatorOrigin("alice")
	id := "call_" + string(rune('a'+n))
	return []providers.Item{
		{Kind: providers.ItemMessage, MessageID: "msg_" + string(rune('a'+n)), Origin: &op, Authority: messages.AuthorityOperatorInstruction, Text: text},
		{Kind: providers.ItemAssistant, Text: "Checking.", ToolCalls: []messages.ToolCall{{ID: id, Name: "ExecCommand", Arguments: json.RawMessage(`{"cmd":"make"}`)}}},
		{Kind: providers.ItemToolResult, CallID: id, ToolName: "ExecCommand", Text: "build ok\nmore lines", IsError: n%2 == 1},
		{Kind: providers.ItemAssistant, Text: "Done " + string(rune('a'+n)) + "."},
	}
}

func conversationOf(turns int, size int) []providers.Item {
	var conv []providers.Item
	for i := range turns {
		conv = append(conv, exchange(i, "Turn "+string(rune('a'+i))+" "+strings.Repeat("x", size))...)
	}
	return conv
}

func TestKeepFromCutsAtExchanges(t *testing.T) {
	conv := conversationOf(5, 400) // each exchange ≈ 170 estimated tokens
	for _, keep := range []int{0, 50, 150, 200, 400, 10_000} {
		cut := keepFrom(conv, keep)
		if cut < len(conv) && conv[cut].Kind != providers.ItemMessage {
			t.Errorf("keep %d: cut at item %d (%s), want a message", keep, cut, conv[cut].Kind)
		}
		if size := estimateTokens(conv[cut:]); size > keep && cut < len(conv) {
			t.Errorf("keep %d: kept %d estimated tokens", keep, size)
		}
	}
	if cut := keepFrom(conv, 10_000); cut != 0 {
		t.Errorf("keep all: cut %d, want 0", cut)
	}
	if cut := keepFrom(conv, 10); cut != len(conv) {
		t.Errorf("keep almost nothing: cut %d, want everything (%d)", cut, len(conv))
	}
	if cut := keepFrom(conv, 400); cut != len(conv)-8 {
		t.Errorf("keep 400: cut %d, want the last two exchanges (%d)", cut, len(conv)-8)
	}
}

func TestCompaction(t *testing.T) {
	s := &AgentState{Conversation: conversationOf(6, 400)}
	cfg := Compaction{TriggerTokens: 2000, KeepTokens: 400}
	if _, ok := s.compaction(cfg); ok {
		t.Fatal("compacted below the trigger")
	}
	cfg.TriggerTokens = 800
	cc, ok := s.compaction(cfg)
	if !ok || cc.DroppedItems != 16 || cc.TotalCompacted != 16 || cc.TokensAfter >= cc.TokensBefore {
		t.Fatalf("compaction = %+v, %v; want the first four exchanges (16 items)", cc, ok)
	}
	for _, want := range []string{
		"- [from operator alice; authority operator_instruction; message msg_a] Turn a xxx",
		`- you called ExecCommand({"cmd":"make"})`,
		"  → ExecCommand ok: build ok",
		"  → ExecCommand error: build ok",
		"- you: Done d.",
	} {
		if !strings.Contains(cc.Summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, cc.Summary)
		}
	}
	if strings.Contains(cc.Summary, "Done e.") {
		t.Errorf("summary has a kept exchange:\n%s", cc.Summary)
	}

	s.applyCompaction(cc)
	if len(s.Conversation) != 8 || s.Conversation[0].MessageID != "msg_e" || s.CompactedItems != 16 {
		t.Fatalf("after compaction: %d items from %s, %d compacted", len(s.Conversation), s.Conversation[0].MessageID, s.CompactedItems)
	}
	item, ok := s.summaryItem()
	if !ok || item.Authority != messages.AuthorityExternalEvidence || item.Origin.Kind != messages.OriginSystem ||
		!strings.Contains(item.Text, "16 items no longer shown") || !strings.Contains(item.Text, cc.Summary) {
		t.Fatalf("summary item = %+v", item)
	}

	// A second compaction keeps the first one's summary ahead of its own.
	s.Conversation = append(s.Conversation, conversationOf(4, 400)...)
	cc2, ok := s.compaction(cfg)
	if !ok || cc2.TotalCompacted != 16+uint64(cc2.DroppedItems) || !strings.HasPrefix(cc2.Summary, cc.Summary) {
		t.Fatalf("second compaction = %+v", cc2)
	}
	if _, ok := s.compaction(Compaction{TriggerTokens: -1}); ok {
		t.Error("compacted with compaction off")
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
