package openai

import (
	"encoding/json"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// params lowers a provider-neutral request to a Responses request body.
// The stable system text becomes instructions; the turn-scoped context
// blocks go after the conversation as a developer message, so the cached
// prefix (instructions, tools, history) survives a new turn — or, for an
// incremental endpoint, into the instructions, which previous_response_id
// does not carry over. The prompt cache key is sent as prompt_cache_key.
func (t *transport) params(req providers.Request) (request, error) {
	p := request{Model: t.ep.Ref.Model, Instructions: stableSystem(req.Frame)}
	p.Input = inputItems(req.Conversation)
	if ctx := contextText(req.Frame); ctx != "" && t.ep.Incremental {
		// Instructions are not carried over by previous_response_id, so
		// turn-scoped context there keeps the input append-only.
		p.Instructions = providers.SystemText(req.Frame)
	} else if ctx != "" {
		p.Input = append(p.Input, message("developer", ctx))
	}
	tools, err := t.tools.Encode(req.Tools, t.ep.Schema, func(s providers.ToolSpec, schema json.RawMessage) (json.RawMessage, error) {
		return encodeTool(s, schema, t.ep.Schema)
	})
	if err != nil {
		return p, err
	}
	p.Tools = tools
	if c := req.Frame.Cache; c != nil {
		p.PromptCacheKey = c.PromptCacheKey
	}
	return p, nil
}

// stableSystem is the system prompt and the system blocks.
func stableSystem(f providers.PromptFrame) string {
	return providers.SystemText(providers.PromptFrame{SystemPrompt: f.SystemPrompt, SystemBlocks: f.SystemBlocks})
}

// contextText is the turn-scoped context blocks.
func contextText(f providers.PromptFrame) string {
	return providers.SystemText(providers.PromptFrame{ContextBlocks: f.ContextBlocks})
}

func message(role, text string) inputItem { return &wireMessage{Role: role, Content: text} }

// inputItems lowers the conversation: messages and notifications as user
// messages with their provenance line, assistant rounds as an assistant
// message plus one function_call per tool call, tool results as
// function_call_output carrying the rendered receipt. The system
// notifications a carrier holds become a developer message: just before a
// message, just after the last function_call_output of a tool batch.
func inputItems(conv []providers.Item) []inputItem {
	out := make([]inputItem, 0, len(conv)+1)
	for i, it := range conv {
		switch it.Kind {
		case providers.ItemAssistant:
			if it.Text != "" {
				out = append(out, message("assistant", it.Text))
			}
			for _, c := range it.ToolCalls {
				out = append(out, &wireFunctionCall{CallID: c.ID, Name: c.Name, Arguments: providers.Arguments(c), Type: "function_call"})
			}
		case providers.ItemToolResult:
			out = append(out, &wireFunctionCallOutput{CallID: it.CallID, Output: it.Text, Type: "function_call_output"})
			out = appendNotifications(out, providers.BatchNotifications(conv, i))
		default:
			out = appendNotifications(out, it.Notifications)
			out = append(out, message("user", providers.ItemText(it)))
		}
	}
	return out
}

// appendNotifications appends ns, rendered, as one developer message (the
// runtime's words, not the operator's); nothing when ns is empty.
func appendNotifications(out []inputItem, ns []messages.SystemNotification) []inputItem {
	if len(ns) == 0 {
		return out
	}
	return append(out, message("developer", messages.RenderSystemNotifications(ns)))
}

// encodeTool is one FunctionTool.
func encodeTool(s providers.ToolSpec, schema json.RawMessage, mode providers.SchemaMode) (json.RawMessage, error) {
	return json.Marshal(functionTool{Strict: mode.Strict(), Parameters: schema, Name: s.Name, Description: s.Description, Type: "function"})
}
