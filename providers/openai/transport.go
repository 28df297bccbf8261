package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// transport is what Responses and Codex share: the endpoint and the SDK
// service configured for it.
type transport struct {
	ep  providers.Endpoint
	svc responses.ResponseService
}

func newTransport(ep providers.Endpoint, want providers.Transport) (transport, error) {
	ep, err := ep.ResolveAs(want)
	if err != nil {
		return transport{}, err
	}
	return transport{ep: ep, svc: responses.NewResponseService(ClientOptions(ep)...)}, nil
}

// ClientOptions are the SDK options of an endpoint: its base URL, key and
// HTTP client, with SDK retries off.
func ClientOptions(ep providers.Endpoint) []option.RequestOption {
	opts := []option.RequestOption{option.WithBaseURL(ep.BaseURL), option.WithHTTPClient(ep.Client()), option.WithMaxRetries(0)}
	if ep.APIKey.Present() {
		opts = append(opts, option.WithAPIKey(ep.APIKey.Reveal()))
	}
	return opts
}

func (t transport) name() string { return t.ep.Ref.String() }

func (t transport) url() string { return strings.TrimSuffix(t.ep.BaseURL, "/") + "/responses" }

// classify turns an SDK failure into a *providers.Error. res is the HTTP
// response, when one arrived.
func (t transport) classify(ctx context.Context, err error, res *http.Response) *providers.Error {
	if res != nil && res.StatusCode >= 400 && ctx.Err() == nil {
		var body []byte
		if res.Body != nil {
			body, _ = io.ReadAll(io.LimitReader(res.Body, 64<<10))
		}
		return providers.ClassifyStatus(providers.HTTPFailure{Provider: t.name(), URL: t.url(), Status: res.StatusCode,
			Header: res.Header, Body: body, Now: time.Now(), Secret: t.ep.APIKey})
	}
	return providers.ClassifyTransport(ctx, t.name(), t.url(), stageOf(err, res), err, t.ep.APIKey)
}

// stageOf guesses where an SDK error without an error status happened.
func stageOf(err error, res *http.Response) string {
	var se *json.SyntaxError
	msg := err.Error()
	switch {
	case errors.As(err, &se), strings.Contains(msg, "error parsing response json"), strings.Contains(msg, "expected destination type"):
		return providers.StageDecode
	case res != nil:
		return providers.StageBody
	}
	return providers.StageRequest
}

// result converts a terminal response: text from output_text and refusal
// parts, tool calls from function_call items. A failed response is
// classified by its error code; an incomplete one keeps its output with
// stop reason max_tokens when the cap cut it, and fails otherwise.
func (t transport) result(r *responses.Response, output []responses.ResponseOutputItemUnion) (providers.Response, error) {
	switch r.Status {
	case "failed":
		return providers.Response{}, providers.ClassifyStreamError(t.name(), t.url(), string(r.Error.Code), r.Error.Message, t.ep.APIKey)
	case "incomplete":
		if r.IncompleteDetails.Reason != "max_output_tokens" || len(output) == 0 {
			return providers.Response{}, &providers.Error{Provider: t.name(), Kind: providers.KindIncomplete,
				Code: r.IncompleteDetails.Reason, Message: "response incomplete: " + r.IncompleteDetails.Reason,
				Diagnostics: &providers.TransportDiagnostics{Stage: providers.StageStream, Provider: t.ep.Ref.Provider, ModelRef: t.name(), URL: providers.SanitizeURL(t.url())}}
		}
	}
	resp := providers.Response{ResponseID: r.ID, Model: r.Model, StopReason: providers.StopEndTurn, Usage: usage(r.Usage)}
	var text strings.Builder
	for _, item := range output {
		switch item.Type {
		case "message":
			for _, part := range item.AsMessage().Content {
				switch part.Type {
				case "output_text":
					text.WriteString(part.Text)
				case "refusal":
					text.WriteString(part.Refusal)
					resp.StopReason = providers.StopRefusal
				}
			}
		case "function_call":
			fc := item.AsFunctionCall()
			resp.ToolCalls = append(resp.ToolCalls, toolCall(fc.CallID, fc.Name, fc.Arguments))
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

func usage(u responses.ResponseUsage) (out messages.TokenUsage) {
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
