package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// Messages is the anthropic/* transport.
type Messages struct {
	ep  providers.Endpoint
	svc sdk.MessageService
}

// New returns the Messages transport of ep. A Transport other than
// anthropic_messages fails closed with KindUnsupported.
func New(ep providers.Endpoint) (*Messages, error) {
	ep, err := ep.ResolveAs(providers.TransportAnthropic)
	if err != nil {
		return nil, err
	}
	opts := []option.RequestOption{option.WithBaseURL(ep.BaseURL), option.WithHTTPClient(ep.Client()), option.WithMaxRetries(0)}
	if ep.APIKey.Present() {
		opts = append(opts, option.WithAPIKey(ep.APIKey.Reveal()))
	}
	return &Messages{ep: ep, svc: sdk.NewMessageService(opts...)}, nil
}

// Name implements providers.Provider.
func (p *Messages) Name() string { return p.ep.Ref.String() }

func (p *Messages) url() string { return strings.TrimSuffix(p.ep.BaseURL, "/") + "/v1/messages" }

// Complete implements providers.Provider.
func (p *Messages) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	body, err := params(p.ep, req)
	if err != nil {
		return providers.Response{}, &providers.Error{Provider: p.Name(), Kind: providers.KindBadRequest, Message: err.Error(), Err: err}
	}
	var res *http.Response
	msg, err := p.svc.New(ctx, body, option.WithResponseInto(&res))
	if err != nil {
		return providers.Response{}, p.classify(ctx, err, res)
	}
	return p.result(msg)
}

func (p *Messages) classify(ctx context.Context, err error, res *http.Response) *providers.Error {
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

// result converts a Message: text blocks joined, tool_use blocks as
// calls, the stop reason normalized (stop_sequence is end_turn).
func (p *Messages) result(m *sdk.Message) (providers.Response, error) {
	if m.ID == "" || m.Type != "message" {
		return providers.Response{}, providers.ProtocolError(p.Name(), p.url(), "reply is not a message")
	}
	resp := providers.Response{ResponseID: m.ID, Model: string(m.Model), StopReason: stopReason(string(m.StopReason))}
	var text strings.Builder
	for _, b := range m.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			args := b.Input
			if len(args) == 0 {
				args = json.RawMessage(`{}`)
			}
			resp.ToolCalls = append(resp.ToolCalls, messages.ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	resp.Text = text.String()
	u := m.Usage
	resp.Usage = messages.TokenUsage{InputTokens: uint64(max(u.InputTokens, 0)), OutputTokens: uint64(max(u.OutputTokens, 0)),
		CacheReadInputTokens: uint64(max(u.CacheReadInputTokens, 0)), CacheCreationInputTokens: uint64(max(u.CacheCreationInputTokens, 0))}
	resp.Usage.TotalTokens = resp.Usage.InputTokens + resp.Usage.OutputTokens + resp.Usage.CacheReadInputTokens + resp.Usage.CacheCreationInputTokens
	return resp, nil
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
