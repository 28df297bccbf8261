package agentstate

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

// wantRequestConversation is what a request showed before it shared the
// state's array: a fresh copy, the summary first.
func wantRequestConversation(st *State) []llm.Item {
	var conv []llm.Item
	if sum, ok := st.SummaryItem(); ok {
		conv = append(conv, sum)
	}
	return append(conv, st.Conversation...)
}

func round(id string, calls ...string) llm.Item {
	it := llm.Item{Kind: llm.ItemAssistant, Text: "round " + id}
	for _, c := range calls {
		it.ToolCalls = append(it.ToolCalls, messages.ToolCall{ID: c, Name: "x", Arguments: []byte(`{"n":1}`)})
	}
	return it
}

func result(call string) llm.Item {
	return llm.Item{Kind: llm.ItemToolResult, CallID: call, ToolName: "x", Text: "result of " + call}
}

// TestConversationTokensKeptAsItChanges: the kept estimate is the whole
// conversation's estimate after appends, results inserted before the end,
// a compaction, the array growing, and a state restored without it.
func TestConversationTokensKeptAsItChanges(t *testing.T) {
	st := &State{}
	check := func(when string) {
		t.Helper()
		if got, want := st.conversationTokens(), estimateTokens(st.Conversation); got != want {
			t.Fatalf("%s: kept estimate %d, whole conversation %d", when, got, want)
		}
		if !st.tokensValid() {
			t.Fatalf("%s: the estimate is not kept (recounted at every request)", when)
		}
	}
	check("empty")
	for i := range 200 {
		st.appendItem(llm.Item{Kind: llm.ItemMessage, Text: fmt.Sprintf("message %d %s", i, string(make([]byte, i)))})
		st.appendItem(round(fmt.Sprint(i), fmt.Sprintf("c%d", i), fmt.Sprintf("d%d", i)))
		st.insertItem(result(fmt.Sprintf("c%d", i)))
		st.insertItem(result(fmt.Sprintf("d%d", i)))
	}
	check("after appends")
	st.insertItem(result("c3")) // an earlier round's: before the end
	check("after a result inserted before the end")
	st.applyCompaction(messages.ConversationCompacted{DroppedItems: 300, Summary: "s", TotalCompacted: 300})
	check("after a compaction")
	restored := &State{Conversation: slices.Clone(st.Conversation)}
	if restored.tokensValid() {
		t.Fatal("a restored state claims an estimate it never made")
	}
	if got, want := restored.conversationTokens(), estimateTokens(st.Conversation); got != want {
		t.Fatalf("restored: %d, want %d", got, want)
	}
	restored.appendItem(llm.Item{Kind: llm.ItemMessage, Text: "after restore"})
	st = restored
	check("a restored state's first change")
	st.Conversation = []llm.Item{{Kind: llm.ItemMessage, Text: "replaced wholesale"}}
	if st.tokensValid() {
		t.Fatal("a replaced conversation kept the old estimate")
	}
}

// TestRequestSharesTheConversation: a request shows the state's items, the
// summary first, without copying them; what the state does next (append,
// insert before the end, compact, a new summary) never changes a request
// already made, and a reader appending to a request never reaches the
// state.
func TestRequestSharesTheConversation(t *testing.T) {
	for _, summary := range []string{"", "earlier things"} {
		t.Run(fmt.Sprintf("summary %q", summary), func(t *testing.T) {
			st := &State{ID: "a1", Model: "m1", Turn: &TurnState{ID: "t1", MessageID: "m1"}, ContextSummary: summary, CompactedItems: 7}
			for i := range 50 {
				st.appendItem(llm.Item{Kind: llm.ItemMessage, Text: fmt.Sprint("message ", i)})
				st.appendItem(round(fmt.Sprint(i), fmt.Sprint("c", i)))
				st.insertItem(result(fmt.Sprint("c", i)))
			}
			first, _ := Request(st, testEnv(), nil)
			want := wantRequestConversation(st)
			if !reflect.DeepEqual(first.Conversation, want) {
				t.Fatalf("request conversation differs from summary + conversation")
			}
			again, _ := Request(st, testEnv(), nil)
			lead := len(again.Conversation) - len(st.Conversation)
			if &again.Conversation[lead] != &st.Conversation[0] || &again.Conversation[lead] != &first.Conversation[lead] {
				t.Fatal("a second request copied the conversation")
			}
			frozen := slices.Clone(first.Conversation)

			st.appendItem(llm.Item{Kind: llm.ItemMessage, Text: "later"})
			st.appendItem(round("later", "cl"))
			st.insertItem(result("c10")) // an earlier round's result: goes before the end
			st.insertItem(result("cl"))
			_ = append(first.Conversation, llm.Item{Kind: llm.ItemMessage, Text: "a reader's own"})
			if !reflect.DeepEqual(first.Conversation, frozen) {
				t.Fatal("the state's later changes reached a request already made")
			}
			if got := st.Conversation[len(st.Conversation)-1]; got.CallID != "cl" {
				t.Fatalf("a reader's append reached the state: last item %+v", got)
			}
			third, _ := Request(st, testEnv(), nil)
			if !reflect.DeepEqual(third.Conversation, wantRequestConversation(st)) {
				t.Fatal("the request after an insert differs from summary + conversation")
			}
			thirdFrozen := slices.Clone(third.Conversation)

			st.applyCompaction(messages.ConversationCompacted{DroppedItems: 40, Summary: "new summary", TotalCompacted: 47})
			if st.conv.base != nil {
				t.Fatal("a compaction left the old array held for the next request")
			}
			fourth, _ := Request(st, testEnv(), nil)
			if !reflect.DeepEqual(fourth.Conversation, wantRequestConversation(st)) || fourth.Conversation[0].Text == third.Conversation[0].Text {
				t.Fatal("the request after a compaction does not show the new summary first")
			}
			if !reflect.DeepEqual(first.Conversation, frozen) || !reflect.DeepEqual(third.Conversation, thirdFrozen) {
				t.Fatal("a compaction changed a request already made")
			}
		})
	}
}

// TestConversationGrowsWithItsSlot: once a request has shown a summary,
// the conversation grows in arrays that keep the summary's slot, each a
// quarter larger than the last, so requests go on sharing it and a long
// life copies each item a few times, not once a request.
func TestConversationGrowsWithItsSlot(t *testing.T) {
	st := &State{ID: "a1", Model: "m1", Turn: &TurnState{ID: "t1", MessageID: "m1"}, ContextSummary: "earlier", CompactedItems: 3}
	st.appendItem(llm.Item{Kind: llm.ItemMessage, Text: "first"})
	arrays, copied := 0, 0
	for i := range 20000 {
		before := cap(st.Conversation)
		st.appendItem(llm.Item{Kind: llm.ItemMessage, Text: fmt.Sprint("message ", i)})
		grew := cap(st.Conversation) != before
		if grew && i > 0 && !st.hasSlot() {
			t.Fatalf("at %d items the conversation grew without the summary's slot: the next request copies it", len(st.Conversation))
		}
		if grew {
			arrays++
			copied += len(st.Conversation) - 1
			if grown := float64(cap(st.Conversation)) / float64(len(st.Conversation)); grown > 1.3 && len(st.Conversation) > 1000 {
				t.Fatalf("an array of %d items has room for %d: more than a quarter spare", len(st.Conversation), cap(st.Conversation))
			}
		}
		if !grew && i%101 != 0 {
			continue
		}
		req, _ := Request(st, testEnv(), nil)
		if &req.Conversation[1] != &st.Conversation[0] {
			t.Fatalf("after %d items a request copied the conversation", len(st.Conversation))
		}
	}
	if per := float64(copied) / float64(len(st.Conversation)); per > 6 {
		t.Fatalf("%d arrays, %.1f copies an item, want at most 6", arrays, per)
	}
}
