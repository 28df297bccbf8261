package agentstate

import (
	"slices"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
	"github.com/holon-actors/holon-actors/tools"
)

// Every tool call the model makes gets exactly one result, right after the
// round that made it (see actors' tool_answers.go for the paths that
// answer them); these find the calls left without one.

// Dangling is a call without a result: the call and the index of the
// assistant item that made it.
type Dangling struct {
	Call  messages.ToolCall
	Round int
}

// Unanswered returns the calls of conv's assistant items that no result
// right after their item answers, in order. It goes by position, as the
// servers do, so a call id a model reuses in a later round is not taken
// for answered.
func Unanswered(conv []llm.Item) []Dangling {
	var out []Dangling
	for i, it := range conv {
		if it.Kind != llm.ItemAssistant || len(it.ToolCalls) == 0 {
			continue
		}
		answered := make(map[string]bool)
		for j := i + 1; j < len(conv) && conv[j].Kind == llm.ItemToolResult; j++ {
			answered[conv[j].CallID] = true
		}
		for _, c := range it.ToolCalls {
			if !answered[c.ID] {
				out = append(out, Dangling{Call: c, Round: i})
			}
		}
	}
	return out
}

// LostResult is the result recorded for a call of an earlier turn that
// ended without recording one: whether it ran is unknown.
func LostResult(call messages.ToolCall) tools.Result {
	return tools.Failure(call.Name, messages.ToolInterrupted, tools.ToolError{
		Kind:         tools.KindInterrupted,
		Message:      "interrupted: the turn that made this call ended without recording its result; whether it ran is unknown",
		RecoveryHint: "check whether its effect happened before repeating it",
	})
}

// AnsweredConversation returns conv with a result inserted after every
// call that has none, and how many it answered. It should find nothing:
// every path that ends a turn answers its calls. It guards a request all
// the same, since one dangling call makes every later request of the
// agent fail.
func AnsweredConversation(conv []llm.Item) ([]llm.Item, int) {
	return answeredFrom(conv, 0)
}

// answeredFrom is AnsweredConversation for a conv whose first from items
// are known to hold no unanswered call (State.answered): only the rest is
// looked at.
func answeredFrom(conv []llm.Item, from int) ([]llm.Item, int) {
	from = min(max(from, 0), len(conv))
	missing := Unanswered(conv[from:])
	if len(missing) == 0 {
		return conv, 0
	}
	out := slices.Clone(conv)
	for n, d := range missing { // each insert shifts the later rounds by one
		res := LostResult(d.Call)
		out = InsertAfterRound(out, from+d.Round+n, llm.Item{
			Kind: llm.ItemToolResult, CallID: d.Call.ID, ToolName: d.Call.Name, Text: res.Receipt, IsError: true,
		})
	}
	return out, len(missing)
}

// noteAnswered moves the answered mark (State.answered) to the end of the
// conversation when nothing after it is left unanswered: at the end of a
// turn, so each turn's items are looked at once there rather than the
// whole conversation at every model request.
func (s *State) noteAnswered() {
	s.answered = min(s.answered, len(s.Conversation))
	if len(Unanswered(s.Conversation[s.answered:])) == 0 {
		s.answered = len(s.Conversation)
	}
}
