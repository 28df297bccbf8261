package openai

import (
	"encoding/json"
	"fmt"
	"sync"

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
	tools, err := t.tools.encode(req.Tools, t.ep.Schema)
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

// maxCachedTools bounds a toolCache; past it the cache starts over.
const maxCachedTools = 4096

// toolCache holds each tool's encoded FunctionTool, keyed by everything
// that goes into it. An agent sends the same catalog every round, and
// emitting a schema (decode, rewrite, encode) costs more than the rest of
// the request together. Safe for concurrent use.
type toolCache struct {
	mu    sync.Mutex
	tools map[string]json.RawMessage
}

// encode emits each tool's schema in mode, from the cache when it can.
func (c *toolCache) encode(specs []providers.ToolSpec, mode providers.SchemaMode) ([]json.RawMessage, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	out := make([]json.RawMessage, 0, len(specs))
	for _, s := range specs {
		key := string(mode) + "\x00" + s.Name + "\x00" + s.Description + "\x00" + string(s.Parameters)
		c.mu.Lock()
		b, ok := c.tools[key]
		c.mu.Unlock()
		if !ok {
			var err error
			if b, err = encodeTool(s, mode); err != nil {
				return nil, err
			}
			c.mu.Lock()
			if c.tools == nil || len(c.tools) >= maxCachedTools {
				c.tools = map[string]json.RawMessage{}
			}
			c.tools[key] = b
			c.mu.Unlock()
		}
		out = append(out, b)
	}
	return out, nil
}

// encodeTool is one FunctionTool, its schema emitted in mode.
func encodeTool(s providers.ToolSpec, mode providers.SchemaMode) (json.RawMessage, error) {
	schema, err := providers.EmitSchemaJSON(s.Parameters, mode)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", s.Name, err)
	}
	return json.Marshal(functionTool{Strict: mode.Strict(), Parameters: schema, Name: s.Name, Description: s.Description, Type: "function"})
}
