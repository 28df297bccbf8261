package providers

import (
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

// ItemText is llm.ItemText: the model-visible text of a conversation item.
func ItemText(it Item) string { return llm.ItemText(it) }

// Provenance is llm.Provenance: a message's label.
func Provenance(it Item) string { return llm.Provenance(it) }

// SystemText is llm.SystemText: the frame's text for transports without
// prompt-cache blocks.
func SystemText(f PromptFrame) string { return llm.SystemText(f) }

// Arguments is llm.Arguments: a tool call's arguments as a JSON object
// text.
func Arguments(c messages.ToolCall) string { return llm.Arguments(c) }
