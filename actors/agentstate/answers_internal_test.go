package agentstate

import (
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

// TestAnsweredRequest: the request-time guard (AnsweredConversation) inserts a result right after
// the round (and its results) for every call without one, and leaves a
// valid conversation as it is.
func TestAnsweredRequest(t *testing.T) {
	msg := func(text string) llm.Item { return llm.Item{Kind: llm.ItemMessage, Text: text} }
	round := func(ids ...string) llm.Item {
		it := llm.Item{Kind: llm.ItemAssistant}
		for _, id := range ids {
			it.ToolCalls = append(it.ToolCalls, messages.ToolCall{ID: id, Name: "echo"})
		}
		return it
	}
	result := func(id string) llm.Item { return llm.Item{Kind: llm.ItemToolResult, CallID: id} }
	shape := func(conv []llm.Item) []string {
		out := make([]string, len(conv))
		for i, it := range conv {
			out[i] = string(it.Kind) + ":" + it.CallID
			if it.Kind == llm.ItemMessage {
				out[i] += it.Text
			}
		}
		return out
	}
	cases := []struct {
		name string
		conv []llm.Item
		want []string
	}{
		{"valid", []llm.Item{msg("a"), round("c1"), result("c1"), msg("b")},
			[]string{"message:a", "assistant:", "tool_result:c1", "message:b"}},
		{"all unanswered, a later message", []llm.Item{msg("a"), round("c1", "c2"), msg("b")},
			[]string{"message:a", "assistant:", "tool_result:c1", "tool_result:c2", "message:b"}},
		{"the second call unanswered", []llm.Item{msg("a"), round("c1", "c2"), result("c1"), msg("b"), round(), msg("c")},
			[]string{"message:a", "assistant:", "tool_result:c1", "tool_result:c2", "message:b", "assistant:", "message:c"}},
		{"a call id reused by a later round", []llm.Item{msg("a"), round("c1"), result("c1"), msg("b"), round("c1"), msg("c")},
			[]string{"message:a", "assistant:", "tool_result:c1", "message:b", "assistant:", "tool_result:c1", "message:c"}},
		{"two rounds unanswered", []llm.Item{msg("a"), round("c1", "c2"), msg("b"), round("c3"), result("c3"), round("c4")},
			[]string{"message:a", "assistant:", "tool_result:c1", "tool_result:c2", "message:b", "assistant:", "tool_result:c3", "assistant:", "tool_result:c4"}},
		{"unanswered at the end", []llm.Item{msg("a"), round("c1")},
			[]string{"message:a", "assistant:", "tool_result:c1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.conv)
			got, _ := AnsweredConversation(in)
			if g := shape(got); !slices.Equal(g, tc.want) {
				t.Fatalf("answeredRequest = %v, want %v", g, tc.want)
			}
			if !slices.Equal(shape(in), shape(tc.conv)) {
				t.Fatalf("answeredRequest changed its input: %v", shape(in))
			}
			if left := Unanswered(got); len(left) != 0 {
				t.Fatalf("still unanswered: %v", left)
			}
		})
	}
}
