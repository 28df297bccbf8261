package agentstate

import (
	"fmt"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

// BenchmarkUnansweredLongConversation times the guard every model request
// runs over a long-lived agent's whole conversation: 2,000 turns of a
// prompt, a round with one call, its result and a closing round (8,000
// items), in which it finds nothing.
func BenchmarkUnansweredLongConversation(b *testing.B) {
	var conv []llm.Item
	for i := range 2000 {
		id := fmt.Sprintf("call_%d", i)
		conv = append(conv,
			llm.Item{Kind: llm.ItemMessage, Text: "prompt"},
			llm.Item{Kind: llm.ItemAssistant, ToolCalls: []messages.ToolCall{{ID: id, Name: "echo"}}},
			llm.Item{Kind: llm.ItemToolResult, CallID: id, ToolName: "echo", Text: "ok"},
			llm.Item{Kind: llm.ItemAssistant, Text: "done"})
	}
	b.ReportAllocs()
	for b.Loop() {
		if d := Unanswered(conv); len(d) != 0 {
			b.Fatalf("Unanswered = %v, want none", d)
		}
	}
}

// BenchmarkRequestLongConversation times what a model request and the
// compaction check before it do over the same long-lived agent (8,000
// items, a summary shown first): neither copies nor walks the whole
// conversation, so the time and bytes do not grow with the agent's age.
func BenchmarkRequestLongConversation(b *testing.B) {
	st := &State{ID: "a1", Model: "m1", Turn: &TurnState{ID: "t1", MessageID: "m1"}, ContextSummary: "earlier", CompactedItems: 10}
	for i := range 2000 {
		id := fmt.Sprintf("call_%d", i)
		st.appendItem(llm.Item{Kind: llm.ItemMessage, Text: "prompt"})
		st.appendItem(llm.Item{Kind: llm.ItemAssistant, ToolCalls: []messages.ToolCall{{ID: id, Name: "echo"}}})
		st.insertItem(llm.Item{Kind: llm.ItemToolResult, CallID: id, ToolName: "echo", Text: "ok"})
		st.appendItem(llm.Item{Kind: llm.ItemAssistant, Text: "done"})
	}
	st.noteAnswered()
	env := testEnv()
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := st.Compaction(env.Cfg.Compaction); ok {
			b.Fatal("compaction due: the conversation is under the trigger")
		}
		if req, _ := Request(st, env, nil); len(req.Conversation) != 8001 {
			b.Fatalf("request of %d items, want 8,001", len(req.Conversation))
		}
	}
}
