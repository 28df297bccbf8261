package openaichat

import (
	"bytes"
	"encoding/json"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// params lowers a request: the stable system text as the first system
// message, the conversation, then the turn-scoped context blocks as a last
// system message so the cached prefix survives a new turn. Tool results
// are tool messages carrying the rendered receipt. max_tokens is sent when
// the endpoint caps the reply; prompt_cache_key only to OpenAI itself:
// other servers may reject unknown fields.
func (p *Chat) params(req providers.Request) (createChatCompletionRequest, error) {
	f := req.Frame
	r := createChatCompletionRequest{Model: p.ep.Ref.Model, Messages: make([]chatCompletionRequestMessage, 0, len(req.Conversation)+2)}
	if s := providers.SystemText(providers.PromptFrame{SystemPrompt: f.SystemPrompt, SystemBlocks: f.SystemBlocks}); s != "" {
		r.Messages = append(r.Messages, system(s))
	}
	r.Messages = appendConversation(r.Messages, req.Conversation)
	if s := providers.SystemText(providers.PromptFrame{ContextBlocks: f.ContextBlocks}); s != "" {
		r.Messages = append(r.Messages, system(s))
	}
	tools, err := p.tools.Encode(req.Tools, p.ep.Schema, p.encodeTool)
	if err != nil {
		return r, err
	}
	r.Tools = tools
	if p.ep.MaxOutputTokens > 0 {
		r.MaxTokens = p.ep.MaxOutputTokens
	}
	if c := f.Cache; c != nil && p.ep.Ref.Provider == "openai" {
		r.PromptCacheKey = c.PromptCacheKey
	}
	return r, nil
}

func system(text string) chatCompletionRequestMessage {
	return &chatCompletionRequestSystemMessage{Content: text, Role: "system"}
}

// appendConversation appends the items. The system notifications a
// carrier holds become a system message (compatible servers often reject
// developer): just before a message's user message, just after a tool
// batch's last tool message.
func appendConversation(out []chatCompletionRequestMessage, conv []providers.Item) []chatCompletionRequestMessage {
	for i, it := range conv {
		switch it.Kind {
		case providers.ItemAssistant:
			out = append(out, assistant(it))
		case providers.ItemToolResult:
			out = append(out, &chatCompletionRequestToolMessage{Content: it.Text, ToolCallID: it.CallID, Role: "tool"})
			out = appendNotifications(out, providers.BatchNotifications(conv, i))
		default:
			out = appendNotifications(out, it.Notifications)
			out = append(out, &chatCompletionRequestUserMessage{Content: providers.ItemText(it), Role: "user"})
		}
	}
	return out
}

// assistant replays an assistant round: its text and its tool calls.
func assistant(it providers.Item) chatCompletionRequestMessage {
	m := &chatCompletionRequestAssistantMessage{Content: it.Text, Role: "assistant"}
	for _, c := range it.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, chatCompletionMessageToolCall{ID: c.ID, Type: "function",
			Function: functionCall{Name: c.Name, Arguments: providers.Arguments(c)}})
	}
	return m
}

// appendNotifications appends ns, rendered, as one system message;
// nothing when ns is empty.
func appendNotifications(out []chatCompletionRequestMessage, ns []messages.SystemNotification) []chatCompletionRequestMessage {
	if len(ns) == 0 {
		return out
	}
	return append(out, system(messages.RenderSystemNotifications(ns)))
}

// encodeTool is one function ChatCompletionTool; strict follows the
// endpoint's schema mode.
func (p *Chat) encodeTool(s providers.ToolSpec, schema json.RawMessage) (json.RawMessage, error) {
	return marshal(chatCompletionTool{Type: "function",
		Function: functionObject{Name: s.Name, Strict: p.ep.Schema.Strict(), Description: s.Description, Parameters: schema}})
}

// marshal encodes v without escaping <, > and &, as the requests this
// transport sent have always been written.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
