package actors

import (
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
	"github.com/holon-actors/holon-actors/telemetry"
)

// roundInput is the model's input of the round batch records, for its
// chat span (gen_ai.input.messages): the conversation's latest items as
// the telemetry's messages; nil unless the telemetry captures content and
// batch records a round. The agent's state is the one the round's model
// call was built from (the batch is not applied yet).
func (a *agent) roundInput(batch []messages.Payload) []telemetry.ChatMessage {
	if !a.deps.Telemetry.CapturesContent() || !recordsRound(batch) {
		return nil
	}
	conv := a.state.Conversation
	if len(conv) > telemetry.MaxInputMessages {
		conv = conv[len(conv)-telemetry.MaxInputMessages:]
	}
	out := make([]telemetry.ChatMessage, 0, len(conv))
	for _, it := range conv {
		out = append(out, chatMessage(it))
	}
	return out
}

func recordsRound(batch []messages.Payload) bool {
	for _, p := range batch {
		if _, ok := p.(messages.ProviderRoundCompleted); ok {
			return true
		}
	}
	return false
}

// chatMessage is a conversation item as the conventions' message: an
// admitted message is the user's text, a notification the system's, an
// assistant round its text and tool calls, a tool result the call's
// response.
func chatMessage(it llm.Item) telemetry.ChatMessage {
	switch it.Kind {
	case llm.ItemAssistant:
		parts := make([]telemetry.MessagePart, 0, 1+len(it.ToolCalls))
		if it.Text != "" {
			parts = append(parts, telemetry.MessagePart{Type: "text", Content: it.Text})
		}
		for _, c := range it.ToolCalls {
			parts = append(parts, telemetry.MessagePart{Type: "tool_call", ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		}
		return telemetry.ChatMessage{Role: "assistant", Parts: parts}
	case llm.ItemToolResult:
		return telemetry.ChatMessage{Role: "tool", Parts: []telemetry.MessagePart{{Type: "tool_call_response", ID: it.CallID, Response: it.Text}}}
	case llm.ItemNotification:
		return telemetry.ChatMessage{Role: "system", Parts: []telemetry.MessagePart{{Type: "text", Content: it.Text}}}
	default:
		return telemetry.ChatMessage{Role: "user", Parts: []telemetry.MessagePart{{Type: "text", Content: it.Text}}}
	}
}
