package agentstate

import (
	"slices"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

// insertResult puts a tool result right after the results already given
// to the latest round that made its call, and at the end when no item of
// conv made it (a round compacted away, or none).
func insertResult(conv []llm.Item, res llm.Item) []llm.Item {
	return slices.Insert(conv, insertIndex(conv, res), res)
}

// insertIndex is where insertResult puts res.
func insertIndex(conv []llm.Item, res llm.Item) int {
	for i := len(conv) - 1; i >= 0; i-- {
		if conv[i].Kind == llm.ItemAssistant && slices.ContainsFunc(conv[i].ToolCalls, func(c messages.ToolCall) bool { return c.ID == res.CallID }) {
			return afterRound(conv, i)
		}
	}
	return len(conv)
}

// InsertAfterRound inserts res after the assistant item at round and the
// results that follow it.
func InsertAfterRound(conv []llm.Item, round int, res llm.Item) []llm.Item {
	return slices.Insert(conv, afterRound(conv, round), res)
}

// afterRound is the index after the assistant item at round and the
// results that follow it.
func afterRound(conv []llm.Item, round int) int {
	j := round + 1
	for j < len(conv) && conv[j].Kind == llm.ItemToolResult {
		j++
	}
	return j
}

// messageItem renders an admitted envelope for the conversation, keeping
// its provenance labels.
func messageItem(env messages.MessageEnvelope) llm.Item {
	origin := env.Origin
	text := env.Body.Text
	if env.Body.Type == messages.BodyJSON {
		text = string(env.Body.Value)
	}
	return llm.Item{
		Kind: llm.ItemMessage, MessageID: env.ID, Origin: &origin,
		Authority: env.AuthorityClass, Text: text,
	}
}
