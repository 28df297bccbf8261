package openaichat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/openai"
)

// Chat is the Chat Completions transport of one endpoint.
type Chat struct {
	ep  providers.Endpoint
	svc oai.ChatCompletionService
}

// New returns the Chat Completions transport of ep; ep needs a BaseURL
// unless its provider is "openai". A Transport other than
// openai_chat_completions fails closed with KindUnsupported.
func New(ep providers.Endpoint) (*Chat, error) {
	ep, err := ep.ResolveAs(providers.TransportChat)
	if err != nil {
		return nil, err
	}
	return &Chat{ep: ep, svc: oai.NewChatCompletionService(openai.ClientOptions(ep)...)}, nil
}

// Name implements providers.Provider.
func (p *Chat) Name() string { return p.ep.Ref.String() }

func (p *Chat) url() string { return strings.TrimSuffix(p.ep.BaseURL, "/") + "/chat/completions" }

// Complete implements providers.Provider.
func (p *Chat) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	body, err := params(p.ep, req)
	if err != nil {
		return providers.Response{}, &providers.Error{Provider: p.Name(), Kind: providers.KindBadRequest, Message: err.Error(), Err: err}
	}
	var res *http.Response
	c, err := p.svc.New(ctx, body, option.WithResponseInto(&res))
	if err != nil {
		return providers.Response{}, p.classify(ctx, err, res)
	}
	return p.result(c)
}

// params lowers a request: the stable system text as the first system
// message, the conversation, then the turn-scoped context blocks as a last
// system message so the cached prefix survives a new turn. Tool results
// are tool messages carrying the rendered receipt. prompt_cache_key is
// sent only to OpenAI itself: other servers may reject unknown fields.
func params(ep providers.Endpoint, req providers.Request) (oai.ChatCompletionNewParams, error) {
	p := oai.ChatCompletionNewParams{Model: ep.Ref.Model}
	f := req.Frame
	if s := providers.SystemText(providers.PromptFrame{SystemPrompt: f.SystemPrompt, SystemBlocks: f.SystemBlocks}); s != "" {
		p.Messages = append(p.Messages, oai.SystemMessage(s))
	}
	p.Messages = append(p.Messages, conversation(req.Conversation)...)
	if s := providers.SystemText(providers.PromptFrame{ContextBlocks: f.ContextBlocks}); s != "" {
		p.Messages = append(p.Messages, oai.SystemMessage(s))
	}
	for _, s := range req.Tools {
		schema, err := providers.EmitSchema(s.Parameters, ep.Schema)
		if err != nil {
			return p, fmt.Errorf("tool %s: %w", s.Name, err)
		}
		fn := shared.FunctionDefinitionParam{Name: s.Name, Parameters: schema, Strict: param.NewOpt(ep.Schema.Strict())}
		if s.Description != "" {
			fn.Description = param.NewOpt(s.Description)
		}
		p.Tools = append(p.Tools, oai.ChatCompletionToolUnionParam{OfFunction: &oai.ChatCompletionFunctionToolParam{Function: fn}})
	}
	if ep.MaxOutputTokens > 0 {
		p.MaxTokens = param.NewOpt(ep.MaxOutputTokens)
	}
	if c := f.Cache; c != nil && c.PromptCacheKey != "" && ep.Ref.Provider == "openai" {
		p.PromptCacheKey = param.NewOpt(c.PromptCacheKey)
	}
	return p, nil
}

// conversation lowers the items. The system notifications a carrier holds
// become a system message (compatible servers often reject developer):
// just before a message's user message, just after a tool batch's last
// tool message.
func conversation(conv []providers.Item) []oai.ChatCompletionMessageParamUnion {
	out := make([]oai.ChatCompletionMessageParamUnion, 0, len(conv))
	for i, it := range conv {
		switch it.Kind {
		case providers.ItemAssistant:
			a := &oai.ChatCompletionAssistantMessageParam{}
			if it.Text != "" {
				a.Content.OfString = param.NewOpt(it.Text)
			}
			for _, c := range it.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, oai.ChatCompletionMessageToolCallUnionParam{OfFunction: &oai.ChatCompletionMessageFunctionToolCallParam{
					ID: c.ID, Function: oai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: providers.Arguments(c)}}})
			}
			out = append(out, oai.ChatCompletionMessageParamUnion{OfAssistant: a})
		case providers.ItemToolResult:
			out = append(out, oai.ToolMessage(it.Text, it.CallID))
			out = appendNotifications(out, providers.BatchNotifications(conv, i))
		default:
			out = appendNotifications(out, it.Notifications)
			out = append(out, oai.UserMessage(providers.ItemText(it)))
		}
	}
	return out
}

// appendNotifications appends ns, rendered, as one system message;
// nothing when ns is empty.
func appendNotifications(out []oai.ChatCompletionMessageParamUnion, ns []messages.SystemNotification) []oai.ChatCompletionMessageParamUnion {
	if len(ns) == 0 {
		return out
	}
	return append(out, oai.SystemMessage(messages.RenderSystemNotifications(ns)))
}

func (p *Chat) classify(ctx context.Context, err error, res *http.Response) *providers.Error {
	if res != nil && res.StatusCode >= 400 && ctx.Err() == nil {
		var body []byte
		if res.Body != nil {
			body, _ = io.ReadAll(io.LimitReader(res.Body, 64<<10))
		}
		return providers.ClassifyStatus(providers.HTTPFailure{Provider: p.Name(), URL: p.url(), Status: res.StatusCode,
			Header: res.Header, Body: body, Now: time.Now(), Secret: p.ep.APIKey})
	}
	stage := providers.StageRequest
	var se *json.SyntaxError
	msg := err.Error()
	switch {
	case errors.As(err, &se), strings.Contains(msg, "error parsing response json"), strings.Contains(msg, "expected destination type"):
		stage = providers.StageDecode
	case res != nil:
		stage = providers.StageBody
	}
	return providers.ClassifyTransport(ctx, p.Name(), p.url(), stage, err, p.ep.APIKey)
}

// result converts the first choice.
func (p *Chat) result(c *oai.ChatCompletion) (providers.Response, error) {
	if len(c.Choices) == 0 {
		return providers.Response{}, providers.ProtocolError(p.Name(), p.url(), "reply has no choices")
	}
	ch := c.Choices[0]
	resp := providers.Response{ResponseID: c.ID, Model: c.Model, Text: ch.Message.Content, StopReason: finishReason(ch.FinishReason)}
	if ch.Message.Refusal != "" {
		resp.Text += ch.Message.Refusal
		resp.StopReason = providers.StopRefusal
	}
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		args := tc.Function.Arguments
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		resp.ToolCalls = append(resp.ToolCalls, messages.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(args)})
	}
	if len(resp.ToolCalls) > 0 {
		resp.StopReason = providers.StopToolUse
	}
	u := c.Usage
	resp.Usage = messages.TokenUsage{InputTokens: uint64(max(u.PromptTokens, 0)), OutputTokens: uint64(max(u.CompletionTokens, 0)),
		CacheReadInputTokens: uint64(max(u.PromptTokensDetails.CachedTokens, 0)), TotalTokens: uint64(max(u.TotalTokens, 0))}
	return resp, nil
}

func finishReason(s string) string {
	switch s {
	case "stop", "":
		return providers.StopEndTurn
	case "tool_calls", "function_call":
		return providers.StopToolUse
	case "length":
		return providers.StopMaxTokens
	case "content_filter":
		return providers.StopRefusal
	}
	return s
}

// Capabilities implements providers.Capable: the prompt cache key goes
// only to OpenAI itself.
func (p *Chat) Capabilities() []providers.PromptCapability {
	if p.ep.Ref.Provider == "openai" {
		return []providers.PromptCapability{providers.CapPromptCacheKey}
	}
	return []providers.PromptCapability{providers.CapFullRequestOnly}
}
