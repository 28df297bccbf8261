package openai

import (
	"context"
	"net/http"

	"github.com/openai/openai-go/v3/option"

	"github.com/holon-actors/holon-actors/providers"
)

// Responses is the openai/* transport: one non-streaming POST /responses.
type Responses struct{ t transport }

// NewResponses returns the Responses transport of ep. A Transport other
// than openai_responses fails closed with KindUnsupported.
func NewResponses(ep providers.Endpoint) (*Responses, error) {
	t, err := newTransport(ep, providers.TransportResponses)
	if err != nil {
		return nil, err
	}
	return &Responses{t: t}, nil
}

// Name implements providers.Provider.
func (p *Responses) Name() string { return p.t.name() }

// Complete implements providers.Provider.
func (p *Responses) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	body, err := params(p.t.ep, req)
	if err != nil {
		return providers.Response{}, &providers.Error{Provider: p.Name(), Kind: providers.KindBadRequest, Message: err.Error(), Err: err}
	}
	opts := []option.RequestOption{}
	if p.t.ep.MaxOutputTokens > 0 {
		opts = append(opts, option.WithJSONSet("max_output_tokens", p.t.ep.MaxOutputTokens))
	}
	var res *http.Response
	opts = append(opts, option.WithResponseInto(&res))
	r, err := p.t.svc.New(ctx, body, opts...)
	if err != nil {
		return providers.Response{}, p.t.classify(ctx, err, res)
	}
	return p.t.result(r, r.Output)
}
