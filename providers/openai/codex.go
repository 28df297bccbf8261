package openai

import (
	"context"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"slices"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/holon-actors/holon-actors/providers"
)

// Codex is the openai-codex/* transport: POST /responses with stream=true,
// consumed as server-sent events by the SDK's stream decoder. Per the spec
// it never sends max_output_tokens, sends reasoning: null, include: [] and
// store: false, rebuilds the terminal output from
// response.output_item.done events when the terminal event carries none,
// and classifies response.failed and response.incomplete directly.
type Codex struct{ t *transport }

// NewCodex returns the Codex transport of ep. A Transport other than
// openai_codex_responses fails closed with KindUnsupported.
func NewCodex(ep providers.Endpoint) (*Codex, error) {
	t, err := newTransport(ep, providers.TransportCodex)
	if err != nil {
		return nil, err
	}
	return &Codex{t: t}, nil
}

// Name implements providers.Provider.
func (p *Codex) Name() string { return p.t.name() }

// Complete implements providers.Provider.
func (p *Codex) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	body, err := p.t.params(req)
	if err == nil {
		var b []byte
		b, err = json.Marshal(codexRequest{request: body, Include: []string{}, Stream: true})
		if err == nil {
			return p.stream(ctx, b)
		}
	}
	return providers.Response{}, &providers.Error{Provider: p.Name(), Kind: providers.KindBadRequest, Message: err.Error(), Err: err}
}

func (p *Codex) stream(ctx context.Context, body []byte) (providers.Response, error) {
	res, err := p.t.post.Do(ctx, body, "text/event-stream")
	if err != nil {
		return providers.Response{}, err
	}
	stream := ssestream.NewStream[streamEvent](ssestream.NewDecoder(res), nil)
	defer stream.Close()
	return p.t.consume(ctx, stream, res)
}

// events is what consume reads: the SDK's SSE stream satisfies it.
type events interface {
	Next() bool
	Current() streamEvent
	Err() error
}

// consume reads events until a terminal one.
func (t *transport) consume(ctx context.Context, events events, res *http.Response) (providers.Response, error) {
	if res != nil && res.StatusCode < 300 && !isEventStream(res.Header.Get("Content-Type")) {
		return providers.Response{}, providers.ProtocolError(t.name(), t.url(),
			"streaming reply has content type "+res.Header.Get("Content-Type")+", want text/event-stream")
	}
	var acc accumulator
	for events.Next() {
		ev := events.Current()
		if done, resp, err := acc.add(t, ev); done {
			return resp, err
		}
	}
	if err := events.Err(); err != nil {
		var se *ssestream.StreamError
		if errors.As(err, &se) {
			return providers.Response{}, providers.ClassifyStreamError(t.name(), t.url(), "stream_error", se.Message, t.ep.APIKey)
		}
		return providers.Response{}, providers.ClassifyTransport(ctx, t.name(), t.url(), providers.StageBody, err, t.ep.APIKey)
	}
	if ctx.Err() != nil {
		return providers.Response{}, providers.ClassifyTransport(ctx, t.name(), t.url(), providers.StageBody, ctx.Err(), t.ep.APIKey)
	}
	return providers.Response{}, &providers.Error{Provider: t.name(), Kind: providers.KindConnection,
		Message: "stream ended before a terminal event",
		Diagnostics: &providers.TransportDiagnostics{Stage: providers.StageBody, Provider: t.ep.Ref.Provider, ModelRef: t.name(),
			URL: providers.SanitizeURL(t.url()), HTTP: &providers.HTTPFlags{IsBody: true}}}
}

// accumulator keeps the output items finished so far, by output index.
type accumulator struct {
	items map[int64]outputItem
	order []int64
}

// add folds one event in; done reports a terminal event.
func (a *accumulator) add(t *transport, ev streamEvent) (done bool, resp providers.Response, err error) {
	switch ev.Type {
	case "response.output_item.done":
		if a.items == nil {
			a.items = map[int64]outputItem{}
		}
		if _, seen := a.items[ev.OutputIndex]; !seen {
			a.order = append(a.order, ev.OutputIndex)
		}
		a.items[ev.OutputIndex] = ev.Item
	case "response.completed", "response.failed", "response.incomplete":
		r := ev.Response
		if r.Status == "" || ev.Type != "response.completed" {
			r.Status = ev.Type[len("response."):]
		}
		output := r.Output
		if len(output) == 0 {
			output = a.rebuilt()
		}
		resp, err = t.result(&r, output)
		return true, resp, err
	case "error":
		return true, providers.Response{}, providers.ClassifyStreamError(t.name(), t.url(), ev.Code, ev.Message, t.ep.APIKey)
	}
	return false, providers.Response{}, nil
}

// rebuilt returns the finished items in output-index order.
func (a *accumulator) rebuilt() []outputItem {
	idx := slices.Sorted(slices.Values(a.order))
	out := make([]outputItem, 0, len(idx))
	for _, i := range idx {
		out = append(out, a.items[i])
	}
	return out
}

// Capabilities implements providers.Capable.
func (p *Codex) Capabilities() []providers.PromptCapability {
	return []providers.PromptCapability{providers.CapPromptCacheKey}
}

func isEventStream(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "text/event-stream"
}
