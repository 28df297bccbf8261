package openai

import (
	"context"
	"encoding/json"

	"github.com/holon-actors/holon-actors/providers"
)

// Responses is the openai/* transport: one non-streaming POST /responses.
// With Endpoint.Incremental it keeps, per agent and prompt cache key, a
// snapshot of the last request and reply, and sends only the new input
// items with previous_response_id when the next request strictly extends
// it; anything else, and any failure, goes back to a full request.
type Responses struct {
	t     *transport
	conts *continuations // nil unless incremental
}

// NewResponses returns the Responses transport of ep. A Transport other
// than openai_responses fails closed with KindUnsupported.
func NewResponses(ep providers.Endpoint) (*Responses, error) {
	t, err := newTransport(ep, providers.TransportResponses)
	if err != nil {
		return nil, err
	}
	p := &Responses{t: t}
	if ep.Incremental {
		p.conts = &continuations{snaps: map[string]snapshot{}}
	}
	return p, nil
}

// Name implements providers.Provider.
func (p *Responses) Name() string { return p.t.name() }

// Complete implements providers.Provider.
func (p *Responses) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	body, err := p.t.params(req)
	if err != nil {
		return providers.Response{}, &providers.Error{Provider: p.Name(), Kind: providers.KindBadRequest, Message: err.Error(), Err: err}
	}
	body.MaxOutputTokens = p.t.ep.MaxOutputTokens
	pl := p.conts.lower(req, body)
	resp, err := p.send(ctx, pl.body)
	if err != nil && pl.incremental {
		p.conts.forget(pl.scope)
		if ctx.Err() != nil || providers.KindOf(err).Retryable() {
			return providers.Response{}, err // the chain's retry goes in full
		}
		// The continuation itself may be what failed (an expired or unknown
		// previous response): fall back to the full request now.
		pl = plan{body: body, scope: pl.scope, full: pl.full, tools: pl.tools}
		resp, err = p.send(ctx, body)
	}
	if err != nil {
		p.conts.forget(pl.scope)
		return providers.Response{}, err
	}
	p.conts.remember(pl, resp)
	return resp, nil
}

func (p *Responses) send(ctx context.Context, body request) (providers.Response, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return providers.Response{}, &providers.Error{Provider: p.Name(), Kind: providers.KindBadRequest, Message: "encode request: " + err.Error(), Err: err}
	}
	var r response
	if err := p.t.post.JSON(ctx, b, &r); err != nil {
		return providers.Response{}, err
	}
	return p.t.result(&r, r.Output)
}

// Capabilities implements providers.Capable.
func (p *Responses) Capabilities() []providers.PromptCapability {
	if p.conts != nil {
		return []providers.PromptCapability{providers.CapPromptCacheKey, providers.CapIncrementalResponses}
	}
	return []providers.PromptCapability{providers.CapPromptCacheKey}
}
