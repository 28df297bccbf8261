package agentstate

import (
	"slices"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// insertResult puts a tool result right after the results already given
// to the latest round that made its call, and at the end when no item of
// conv made it (a round compacted away, or none).
func insertResult(conv []providers.Item, res providers.Item) []providers.Item {
	for i := len(conv) - 1; i >= 0; i-- {
		if conv[i].Kind == providers.ItemAssistant && slices.ContainsFunc(conv[i].ToolCalls, func(c messages.ToolCall) bool { return c.ID == res.CallID }) {
			return InsertAfterRound(conv, i, res)
		}
	}
	return append(conv, res)
}

// InsertAfterRound inserts res after the assistant item at round and the
// results that follow it.
func InsertAfterRound(conv []providers.Item, round int, res providers.Item) []providers.Item {
	j := round + 1
	for j < len(conv) && conv[j].Kind == providers.ItemToolResult {
		j++
	}
	return slices.Insert(conv, j, res)
}

// messageItem renders an admitted envelope for the conversation, keeping
// its provenance labels.
func messageItem(env messages.MessageEnvelope) providers.Item {
	origin := env.Origin
	text := env.Body.Text
	if env.Body.Type == messages.BodyJSON {
		text = string(env.Body.Value)
	}
	return providers.Item{
		Kind: providers.ItemMessage, MessageID: env.ID, Origin: &origin,
		Authority: env.AuthorityClass, Text: text,
	}
}
