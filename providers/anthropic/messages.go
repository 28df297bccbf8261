package anthropic

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// apiVersion is the anthropic-version header: the Messages API version
// this transport's wire types follow (the one the SDK sent).
const apiVersion = "2023-06-01"

// Messages is the anthropic/* transport.
type Messages struct {
	ep    providers.Endpoint
	post  providers.Post
	tools *providers.ToolCache
}

// New returns the Messages transport of ep. A Transport other than
// anthropic_messages fails closed with KindUnsupported.
func New(ep providers.Endpoint) (*Messages, error) {
	ep, err := ep.ResolveAs(providers.TransportAnthropic)
	if err != nil {
		return nil, err
	}
	h := http.Header{"Anthropic-Version": {apiVersion}}
	if ep.APIKey.Present() {
		h.Set("X-Api-Key", ep.APIKey.Reveal())
	}
	return &Messages{ep: ep, tools: &providers.ToolCache{}, post: ep.Post("/v1/messages", h)}, nil
}

// Name implements providers.Provider.
func (p *Messages) Name() string { return p.ep.Ref.String() }

func (p *Messages) url() string { return p.post.URL }

// Complete implements providers.Provider.
func (p *Messages) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	body, err := p.params(req)
	if err != nil {
		return providers.Response{}, &providers.Error{Provider: p.Name(), Kind: providers.KindBadRequest, Message: err.Error(), Err: err}
	}
	b, err := json.Marshal(body)
	if err != nil {
		return providers.Response{}, &providers.Error{Provider: p.Name(), Kind: providers.KindBadRequest, Message: "encode request: " + err.Error(), Err: err}
	}
	var m response
	if err := p.post.JSON(ctx, b, &m); err != nil {
		return providers.Response{}, err
	}
	return p.result(&m)
}

// result converts a Message: text blocks joined, tool_use blocks as
// calls, the stop reason normalized (stop_sequence is end_turn).
func (p *Messages) result(m *response) (providers.Response, error) {
	if m.ID == "" || m.Type != "message" {
		return providers.Response{}, providers.ProtocolError(p.Name(), p.url(), "reply is not a message")
	}
	resp := providers.Response{ResponseID: m.ID, Model: m.Model, StopReason: stopReason(m.StopReason)}
	var text strings.Builder
	for _, b := range m.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			resp.ToolCalls = append(resp.ToolCalls, messages.ToolCall{ID: b.ID, Name: b.Name, Arguments: arguments(b.Input)})
		}
	}
	resp.Text = text.String()
	u := m.Usage
	resp.Usage = messages.TokenUsage{InputTokens: uint64(max(u.InputTokens, 0)), OutputTokens: uint64(max(u.OutputTokens, 0)),
		CacheReadInputTokens: uint64(max(u.CacheReadInputTokens, 0)), CacheCreationInputTokens: uint64(max(u.CacheCreationInputTokens, 0))}
	resp.Usage.TotalTokens = resp.Usage.InputTokens + resp.Usage.OutputTokens + resp.Usage.CacheReadInputTokens + resp.Usage.CacheCreationInputTokens
	return resp, nil
}

// arguments keeps a tool_use input as received, "{}" when it is missing
// or null.
func arguments(in json.RawMessage) json.RawMessage {
	if len(in) == 0 || string(in) == "null" {
		return json.RawMessage(`{}`)
	}
	return in
}

func stopReason(s string) string {
	switch s {
	case "end_turn", "stop_sequence":
		return providers.StopEndTurn
	case "tool_use":
		return providers.StopToolUse
	case "max_tokens", "model_context_window_exceeded":
		return providers.StopMaxTokens
	case "refusal":
		return providers.StopRefusal
	}
	return s
}

// Capabilities implements providers.Capable.
func (p *Messages) Capabilities() []providers.PromptCapability {
	return []providers.PromptCapability{providers.CapPromptCacheBlocks}
}
