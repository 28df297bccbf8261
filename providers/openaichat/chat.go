package openaichat

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// Chat is the Chat Completions transport of one endpoint: its POST and
// its encoded tool catalog.
type Chat struct {
	ep    providers.Endpoint
	post  providers.Post
	tools *providers.ToolCache
}

// New returns the Chat Completions transport of ep; ep needs a BaseURL
// unless its provider is "openai". A Transport other than
// openai_chat_completions fails closed with KindUnsupported.
func New(ep providers.Endpoint) (*Chat, error) {
	ep, err := ep.ResolveAs(providers.TransportChat)
	if err != nil {
		return nil, err
	}
	return &Chat{ep: ep, tools: &providers.ToolCache{}, post: ep.Post("/chat/completions", ep.BearerAuth())}, nil
}

// Name implements providers.Provider.
func (p *Chat) Name() string { return p.ep.Ref.String() }

// Complete implements providers.Provider: one POST, no retries (the chain
// owns them); failures come back classified by providers.Post.
func (p *Chat) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	body, err := p.params(req)
	if err != nil {
		return providers.Response{}, &providers.Error{Provider: p.Name(), Kind: providers.KindBadRequest, Message: err.Error(), Err: err}
	}
	b, err := marshal(body)
	if err != nil {
		return providers.Response{}, &providers.Error{Provider: p.Name(), Kind: providers.KindBadRequest, Message: "encode request: " + err.Error(), Err: err}
	}
	var r createChatCompletionResponse
	if err := p.post.JSON(ctx, b, &r); err != nil {
		return providers.Response{}, err
	}
	return p.result(&r)
}

// result converts the first choice.
func (p *Chat) result(c *createChatCompletionResponse) (providers.Response, error) {
	if len(c.Choices) == 0 {
		return providers.Response{}, providers.ProtocolError(p.Name(), p.post.URL, "reply has no choices")
	}
	ch := c.Choices[0]
	resp := providers.Response{ResponseID: c.ID, Model: c.Model, Text: string(ch.Message.Content), StopReason: finishReason(ch.FinishReason)}
	if ch.Message.Refusal != "" {
		resp.Text += string(ch.Message.Refusal)
		resp.StopReason = providers.StopRefusal
	}
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		args := string(tc.Function.Arguments)
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		resp.ToolCalls = append(resp.ToolCalls, messages.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: json.RawMessage(args)})
	}
	if len(resp.ToolCalls) > 0 {
		resp.StopReason = providers.StopToolUse
	}
	u := c.Usage
	resp.Usage = messages.TokenUsage{InputTokens: uint64(u.PromptTokens), OutputTokens: uint64(u.CompletionTokens),
		CacheReadInputTokens: uint64(u.PromptTokensDetails.CachedTokens), TotalTokens: uint64(u.TotalTokens)}
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
