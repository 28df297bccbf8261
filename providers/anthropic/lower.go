package anthropic

import (
	"encoding/json"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// defaultMaxTokens is max_tokens when the endpoint sets no cap; the
// Messages API requires one.
const defaultMaxTokens = 8192

// maxSystemBreakpoints leaves one of Anthropic's four cache breakpoints
// for the rolling conversation marker.
const maxSystemBreakpoints = 3

// params lowers a request to a Messages body. The system prompt and
// system blocks become system text blocks, the marked ones (at most the
// last three) with cache_control; the conversation becomes alternating
// user and assistant messages; the turn-scoped context blocks follow the
// rolling cache marker in the last user message, so the cached prefix
// holds the whole history.
func params(ep providers.Endpoint, req providers.Request) (sdk.MessageNewParams, error) {
	p := sdk.MessageNewParams{Model: sdk.Model(ep.Ref.Model), MaxTokens: defaultMaxTokens}
	if ep.MaxOutputTokens > 0 {
		p.MaxTokens = ep.MaxOutputTokens
	}
	p.System = system(req.Frame)
	p.Messages = conversation(req.Conversation)
	addContext(&p, req.Frame.ContextBlocks)
	tools, err := toolParams(req.Tools, ep.Schema)
	if err != nil {
		return p, err
	}
	p.Tools = tools
	return p, nil
}

func system(f providers.PromptFrame) []sdk.TextBlockParam {
	var out []sdk.TextBlockParam
	if f.SystemPrompt != "" {
		out = append(out, sdk.TextBlockParam{Text: f.SystemPrompt})
	}
	marked := 0
	for i := len(f.SystemBlocks) - 1; i >= 0; i-- { // count from the end: later marks cover more
		if f.SystemBlocks[i].CacheBreakpoint && f.SystemBlocks[i].Text != "" {
			marked++
		}
	}
	skip := max(marked-maxSystemBreakpoints, 0)
	for _, b := range f.SystemBlocks {
		if b.Text == "" {
			continue
		}
		tb := sdk.TextBlockParam{Text: b.Text}
		if b.CacheBreakpoint {
			if skip > 0 {
				skip--
			} else {
				tb.CacheControl = sdk.NewCacheControlEphemeralParam()
			}
		}
		out = append(out, tb)
	}
	return out
}

// conversation groups items into alternating messages: an assistant
// round is one assistant message (text, then tool_use blocks); the user
// side between rounds is one user message with the tool_result blocks
// first, as the API requires, then the text of messages and
// notifications. The system notifications a carrier holds become one text
// block: right before a message's text, or right after the tool_result
// blocks for a tool batch.
func conversation(conv []providers.Item) []sdk.MessageParam {
	var out []sdk.MessageParam
	var results, batchNotes, texts []sdk.ContentBlockParamUnion
	flush := func() {
		if len(results)+len(batchNotes)+len(texts) > 0 {
			content := append(append(results, batchNotes...), texts...)
			out = append(out, sdk.MessageParam{Role: sdk.MessageParamRoleUser, Content: content})
			results, batchNotes, texts = nil, nil, nil
		}
	}
	for i, it := range conv {
		switch it.Kind {
		case providers.ItemAssistant:
			flush()
			out = append(out, sdk.MessageParam{Role: sdk.MessageParamRoleAssistant, Content: assistant(it)})
		case providers.ItemToolResult:
			tr := &sdk.ToolResultBlockParam{ToolUseID: it.CallID,
				Content: []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: nonEmpty(it.Text)}}}}
			if it.IsError {
				tr.IsError = param.NewOpt(true)
			}
			results = append(results, sdk.ContentBlockParamUnion{OfToolResult: tr})
			batchNotes = appendNotifications(batchNotes, providers.BatchNotifications(conv, i))
		default:
			texts = appendNotifications(texts, it.Notifications)
			texts = append(texts, sdk.NewTextBlock(providers.ItemText(it)))
		}
	}
	flush()
	return out
}

// appendNotifications appends ns, rendered, as one text block; nothing
// when ns is empty.
func appendNotifications(blocks []sdk.ContentBlockParamUnion, ns []messages.SystemNotification) []sdk.ContentBlockParamUnion {
	if len(ns) == 0 {
		return blocks
	}
	return append(blocks, sdk.NewTextBlock(messages.RenderSystemNotifications(ns)))
}

func assistant(it providers.Item) []sdk.ContentBlockParamUnion {
	var blocks []sdk.ContentBlockParamUnion
	if it.Text != "" {
		blocks = append(blocks, sdk.NewTextBlock(it.Text))
	}
	for _, c := range it.ToolCalls {
		blocks = append(blocks, sdk.ContentBlockParamUnion{OfToolUse: &sdk.ToolUseBlockParam{
			ID: c.ID, Name: c.Name, Input: json.RawMessage(providers.Arguments(c))}})
	}
	if len(blocks) == 0 {
		blocks = append(blocks, sdk.NewTextBlock("(no reply)")) // the API rejects empty content
	}
	return blocks
}

// nonEmpty keeps a tool result's text block valid: the API rejects empty
// text blocks.
func nonEmpty(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}

// addContext puts the rolling cache marker on the last block of the last
// user message, then appends the context blocks after it.
func addContext(p *sdk.MessageNewParams, blocks []providers.Block) {
	n := len(p.Messages)
	if n == 0 || p.Messages[n-1].Role != sdk.MessageParamRoleUser {
		if len(blocks) == 0 {
			return
		}
		p.Messages = append(p.Messages, sdk.MessageParam{Role: sdk.MessageParamRoleUser})
		n++
	}
	last := &p.Messages[n-1]
	if len(last.Content) > 0 {
		mark(&last.Content[len(last.Content)-1])
	}
	for _, b := range blocks {
		if b.Text != "" {
			last.Content = append(last.Content, sdk.NewTextBlock(b.Text))
		}
	}
}

// mark sets cache_control on a text or tool_result block.
func mark(b *sdk.ContentBlockParamUnion) {
	switch {
	case b.OfText != nil:
		b.OfText.CacheControl = sdk.NewCacheControlEphemeralParam()
	case b.OfToolResult != nil:
		b.OfToolResult.CacheControl = sdk.NewCacheControlEphemeralParam()
	}
}

// toolParams emits each tool's input schema in the endpoint's mode;
// strict is sent only in Strict mode.
func toolParams(specs []providers.ToolSpec, mode providers.SchemaMode) ([]sdk.ToolUnionParam, error) {
	out := make([]sdk.ToolUnionParam, 0, len(specs))
	for _, s := range specs {
		schema, err := providers.EmitSchema(s.Parameters, mode)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", s.Name, err)
		}
		in := sdk.ToolInputSchemaParam{Properties: schema["properties"], ExtraFields: map[string]any{}}
		for k, v := range schema {
			switch k {
			case "type", "properties":
			case "required":
				for _, r := range v.([]any) {
					if name, ok := r.(string); ok {
						in.Required = append(in.Required, name)
					}
				}
			default:
				in.ExtraFields[k] = v
			}
		}
		tool := &sdk.ToolParam{Name: s.Name, InputSchema: in}
		if s.Description != "" {
			tool.Description = param.NewOpt(s.Description)
		}
		if mode.Strict() {
			tool.Strict = param.NewOpt(true)
		}
		out = append(out, sdk.ToolUnionParam{OfTool: tool})
	}
	return out, nil
}
