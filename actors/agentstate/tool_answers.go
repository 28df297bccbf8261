package agentstate

import (
	"slices"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// hasCall reports whether c is a call of the turn's last round.
func (t *TurnState) hasCall(c messages.ToolCall) bool {
	return slices.ContainsFunc(t.Calls, func(x messages.ToolCall) bool { return x.ID == c.ID })
}

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
