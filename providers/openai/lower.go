package openai

import (
	"fmt"

	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// params lowers a provider-neutral request to a Responses request body.
// The stable system text becomes instructions; the turn-scoped context
// blocks go after the conversation as a developer message, so the cached
// prefix (instructions, tools, history) survives a new turn — or, for an
// incremental endpoint, into the instructions, which previous_response_id
// does not carry over. The prompt cache key is sent as prompt_cache_key.
func params(ep providers.Endpoint, req providers.Request) (responses.ResponseNewParams, error) {
	p := responses.ResponseNewParams{Model: ep.Ref.Model}
	instructions := stableSystem(req.Frame)
	input := inputItems(req.Conversation)
	if ctx := contextText(req.Frame); ctx != "" && ep.Incremental {
		// Instructions are not carried over by previous_response_id, so
		// turn-scoped context there keeps the input append-only.
		instructions = providers.SystemText(req.Frame)
	} else if ctx != "" {
		input = append(input, message(responses.EasyInputMessageRoleDeveloper, ctx))
	}
	if instructions != "" {
		p.Instructions = param.NewOpt(instructions)
	}
	p.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: input}
	tools, err := toolParams(req.Tools, ep.Schema)
	if err != nil {
		return p, err
	}
	p.Tools = tools
	if c := req.Frame.Cache; c != nil && c.PromptCacheKey != "" {
		p.PromptCacheKey = param.NewOpt(c.PromptCacheKey)
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

func message(role responses.EasyInputMessageRole, text string) responses.ResponseInputItemUnionParam {
	return responses.ResponseInputItemUnionParam{OfMessage: &responses.EasyInputMessageParam{
		Role: role, Content: responses.EasyInputMessageContentUnionParam{OfString: param.NewOpt(text)}}}
}

// inputItems lowers the conversation: messages and notifications as user
// messages with their provenance line, assistant rounds as an assistant
// message plus one function_call per tool call, tool results as
// function_call_output carrying the rendered receipt. The system
// notifications a carrier holds become a developer message: just before a
// message, just after the last function_call_output of a tool batch.
func inputItems(conv []providers.Item) []responses.ResponseInputItemUnionParam {
	out := make([]responses.ResponseInputItemUnionParam, 0, len(conv))
	for i, it := range conv {
		switch it.Kind {
		case providers.ItemAssistant:
			if it.Text != "" {
				out = append(out, message(responses.EasyInputMessageRoleAssistant, it.Text))
			}
			for _, c := range it.ToolCalls {
				out = append(out, responses.ResponseInputItemUnionParam{OfFunctionCall: &responses.ResponseFunctionToolCallParam{
					CallID: c.ID, Name: c.Name, Arguments: providers.Arguments(c)}})
			}
		case providers.ItemToolResult:
			out = append(out, responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{
				CallID: param.NewOpt(it.CallID),
				Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: param.NewOpt(it.Text)}}})
			out = appendNotifications(out, providers.BatchNotifications(conv, i))
		default:
			out = appendNotifications(out, it.Notifications)
			out = append(out, message(responses.EasyInputMessageRoleUser, providers.ItemText(it)))
		}
	}
	return out
}

// appendNotifications appends ns, rendered, as one developer message (the
// runtime's words, not the operator's); nothing when ns is empty.
func appendNotifications(out []responses.ResponseInputItemUnionParam, ns []messages.SystemNotification) []responses.ResponseInputItemUnionParam {
	if len(ns) == 0 {
		return out
	}
	return append(out, message(responses.EasyInputMessageRoleDeveloper, messages.RenderSystemNotifications(ns)))
}

// toolParams emits each tool's schema in the endpoint's mode.
func toolParams(specs []providers.ToolSpec, mode providers.SchemaMode) ([]responses.ToolUnionParam, error) {
	out := make([]responses.ToolUnionParam, 0, len(specs))
	for _, s := range specs {
		schema, err := providers.EmitSchema(s.Parameters, mode)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", s.Name, err)
		}
		fn := &responses.FunctionToolParam{Name: s.Name, Parameters: schema, Strict: param.NewOpt(mode.Strict())}
		if s.Description != "" {
			fn.Description = param.NewOpt(s.Description)
		}
		out = append(out, responses.ToolUnionParam{OfFunction: fn})
	}
	return out, nil
}
