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
