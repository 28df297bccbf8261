package openai

import (
	"encoding/json"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// transport is what Responses and Codex share: the endpoint, its POST
// and the encoded tool catalog.
type transport struct {
	ep    providers.Endpoint
	post  providers.Post
	tools *providers.ToolCache
}

func newTransport(ep providers.Endpoint, want providers.Transport) (*transport, error) {
	ep, err := ep.ResolveAs(want)
	if err != nil {
		return nil, err
	}
	return &transport{ep: ep, tools: &providers.ToolCache{}, post: ep.Post("/responses", ep.BearerAuth())}, nil
}

func (t *transport) name() string { return t.ep.Ref.String() }

func (t *transport) url() string { return t.post.URL }

// result converts a terminal response: text from output_text and refusal
// parts, tool calls from function_call items. A failed response is
// classified by its error code; an incomplete one keeps its output with
// stop reason max_tokens when the cap cut it, and fails otherwise.
func (t *transport) result(r *response, output []outputItem) (providers.Response, error) {
	switch r.Status {
	case "failed":
		var e responseError
		if r.Error != nil {
			e = *r.Error
		}
		return providers.Response{}, providers.ClassifyStreamError(t.name(), t.url(), e.Code, e.Message, t.ep.APIKey)
	case "incomplete":
		var reason string
		if r.IncompleteDetails != nil {
			reason = r.IncompleteDetails.Reason
		}
		if reason != "max_output_tokens" || len(output) == 0 {
			return providers.Response{}, &providers.Error{Provider: t.name(), Kind: providers.KindIncomplete,
				Code: reason, Message: "response incomplete: " + reason,
				Diagnostics: &providers.TransportDiagnostics{Stage: providers.StageStream, Provider: t.ep.Ref.Provider, ModelRef: t.name(), URL: providers.SanitizeURL(t.url())}}
		}
	}
	resp := providers.Response{ResponseID: r.ID, Model: r.Model, StopReason: providers.StopEndTurn, Usage: usage(r.Usage)}
	var text strings.Builder
	for _, item := range output {
		switch item.Type {
		case "message":
			for _, part := range item.Content {
				switch part.Type {
				case "output_text":
					text.WriteString(part.Text)
				case "refusal":
					text.WriteString(part.Refusal)
					resp.StopReason = providers.StopRefusal
				}
			}
		case "function_call":
			resp.ToolCalls = append(resp.ToolCalls, toolCall(item.CallID, item.Name, item.Arguments))
		}
	}
	resp.Text = text.String()
	switch {
	case r.Status == "incomplete":
		resp.StopReason = providers.StopMaxTokens
	case len(resp.ToolCalls) > 0:
		resp.StopReason = providers.StopToolUse
	}
	if r.ID == "" && len(output) == 0 {
		return providers.Response{}, providers.ProtocolError(t.name(), t.url(), "response has no id and no output")
	}
	return resp, nil
}

func usage(u usageWire) (out messages.TokenUsage) {
	out.InputTokens = uint64(max(u.InputTokens, 0))
	out.OutputTokens = uint64(max(u.OutputTokens, 0))
	out.CacheReadInputTokens = uint64(max(u.InputTokensDetails.CachedTokens, 0))
	out.TotalTokens = uint64(max(u.TotalTokens, 0))
	return out
}

// toolCall keeps the model's arguments as received ("{}" when empty).
func toolCall(id, name, args string) messages.ToolCall {
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	return messages.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
}
