package agentstate

import (
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

func markMsg(text string) llm.Item { return llm.Item{Kind: llm.ItemMessage, Text: text} }

func markRound(ids ...string) llm.Item {
	it := llm.Item{Kind: llm.ItemAssistant}
	for _, id := range ids {
		it.ToolCalls = append(it.ToolCalls, messages.ToolCall{ID: id, Name: "echo"})
	}
	return it
}

func markResult(id string) llm.Item { return llm.Item{Kind: llm.ItemToolResult, CallID: id} }

func kinds(conv []llm.Item) []string {
	out := make([]string, len(conv))
	for i, it := range conv {
		out[i] = string(it.Kind) + ":" + it.CallID
	}
	return out
}

// answeredTurn is a state between turns whose conversation is one answered
// turn, marked answered as the end of a turn marks it.
func answeredTurn() *State {
	st := &State{ID: "a1", Conversation: []llm.Item{markMsg("a"), markRound("c1"), markResult("c1"), markRound()}}
	st.noteAnswered()
	return st
}

// requestConv is the conversation of the request st would make next.
func requestConv(st *State) ([]llm.Item, int) {
	st.Turn = &TurnState{ID: "t2", MessageID: "m2", Index: 2}
	req, n := Request(st, testEnv(), nil)
	return req.Conversation, n
}

// TestAnsweredMark: the end of a turn marks the conversation so far
// answered, and a request looks for unanswered calls only after the mark:
// still finding (and answering, at the right place) the ones after it,
// with or without the compaction summary first. A call left unanswered
// keeps the mark before it; compaction and a repaired result clear it.
func TestAnsweredMark(t *testing.T) {
	st := answeredTurn()
	if st.answered != 4 {
		t.Fatalf("answered after an answered turn = %d, want 4", st.answered)
	}
	// Only items after the mark are looked at: a dangling call hidden
	// behind it (which the end of a turn would not have marked) is not
	// seen; the full check would answer it.
	hidden := answeredTurn()
	hidden.Conversation[2] = markMsg("not a result")
	if conv, n := requestConv(hidden); n != 0 || len(conv) != 4 {
		t.Fatalf("request over a marked conversation answered %d (%v), want the marked items not looked at", n, kinds(conv))
	}

	for _, summary := range []string{"", "earlier"} {
		st := answeredTurn()
		st.ContextSummary = summary
		st.Conversation = append(st.Conversation, markMsg("b"), markRound("c2", "c3"), markResult("c2"))
		conv, n := requestConv(st)
		want := []string{"message:", "assistant:", "tool_result:c1", "assistant:", "message:", "assistant:", "tool_result:c2", "tool_result:c3"}
		if summary != "" {
			want = append([]string{"message:"}, want...)
		}
		if n != 1 || !slices.Equal(kinds(conv), want) {
			t.Errorf("summary %q: request answered %d, conversation %v, want 1 and %v", summary, n, kinds(conv), want)
		}
	}

	dangling := &State{ID: "a1", Conversation: []llm.Item{markMsg("a"), markRound("c1"), markRound()}}
	dangling.noteAnswered()
	if dangling.answered != 0 {
		t.Errorf("answered over an unanswered call = %d, want 0", dangling.answered)
	}

	compacted := answeredTurn()
	compacted.applyCompaction(messages.ConversationCompacted{DroppedItems: 1, Summary: "s", TotalCompacted: 1})
	if compacted.answered != 0 {
		t.Errorf("answered after compaction = %d, want 0", compacted.answered)
	}
	repaired := answeredTurn()
	repaired.applyToolExecuted(messages.ToolExecuted{CallID: "c1", ToolName: "echo", Status: messages.ToolOK, Receipt: "again"})
	if repaired.answered != 0 {
		t.Errorf("answered after a repaired result = %d, want 0", repaired.answered)
	}
}
