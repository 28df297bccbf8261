package llm

import (
	"strings"

	"github.com/holon-actors/holon-actors/messages"
)

// ItemText is the model-visible text of a conversation item as every
// transport sends it. An admitted message gets a provenance line (origin,
// authority class, message id) before its text, so the model can tell its
// operator's instructions from information; a notification is labelled as
// runtime information. Assistant text and tool receipts are sent as they
// are.
func ItemText(it Item) string {
	switch it.Kind {
	case ItemMessage:
		label := Provenance(it)
		if label == "" {
			return it.Text
		}
		return "[" + label + "]\n" + it.Text
	case ItemNotification:
		return "[runtime notification; authority " + string(messages.AuthorityRuntimeInstruction) + "]\n" + it.Text
	}
	return it.Text
}

// Provenance is a message's label: its origin, authority and message id,
// as the model sees it before the message's text.
func Provenance(it Item) string {
	var parts []string
	if it.Origin != nil && it.Origin.Kind != "" {
		from := "from " + string(it.Origin.Kind)
		if id := originID(*it.Origin); id != "" {
			from += " " + id
		}
		parts = append(parts, from)
	}
	if it.Authority != "" {
		parts = append(parts, "authority "+string(it.Authority))
	}
	if it.MessageID != "" {
		parts = append(parts, "message "+it.MessageID)
	}
	return strings.Join(parts, "; ")
}

// originID is the identifying field of an origin's kind, "" if none.
func originID(o messages.Origin) string {
	for _, s := range []string{o.ChannelID, o.Source, o.DescriptorID, o.TimerID, o.Subsystem, o.TaskID, o.ActorID} {
		if s != "" {
			return s
		}
	}
	return ""
}

// SystemText joins the frame's system prompt and system blocks, then its
// context blocks, with blank lines: the system text of transports without
// prompt-cache blocks.
func SystemText(f PromptFrame) string {
	var parts []string
	for _, b := range f.Blocks() {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n\n")
}

// Blocks returns the frame as an ordered list of non-empty blocks: the
// system prompt (a cache breakpoint when system blocks follow it unmarked
// is not implied), the system blocks, then the context blocks.
func (f PromptFrame) Blocks() []Block {
	var out []Block
	if f.SystemPrompt != "" {
		out = append(out, Block{Text: f.SystemPrompt})
	}
	for _, bs := range [][]Block{f.SystemBlocks, f.ContextBlocks} {
		for _, b := range bs {
			if b.Text != "" {
				out = append(out, b)
			}
		}
	}
	return out
}

// Arguments returns a tool call's arguments as a JSON object text, "{}"
// when the model sent none.
func Arguments(c messages.ToolCall) string {
	if len(strings.TrimSpace(string(c.Arguments))) == 0 {
		return "{}"
	}
	return string(c.Arguments)
}
