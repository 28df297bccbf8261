// Package catalog builds provider transports from configuration: a model
// ref such as "openai/gpt-5", "openai-codex/gpt-5-codex",
// "anthropic/claude-sonnet-4-5" or a named OpenAI-compatible endpoint
// ("ollama/llama3.2" with a base URL) becomes the matching transport, and
// a list of endpoints becomes a providers.Chain.
//
// catalog imports providers, its vendor packages and messages, and nothing
// else from this module.
package catalog

import (
	"net/http"

	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/anthropic"
	"github.com/holon-actors/holon-actors/providers/openai"
	"github.com/holon-actors/holon-actors/providers/openaichat"
)

// New returns the transport of ep: its Transport, or the built-in one of
// its provider id. Unknown or mismatched transports fail closed with a
// *providers.Error of KindUnsupported.
func New(ep providers.Endpoint) (providers.Provider, error) {
	ep, err := ep.Resolve()
	if err != nil {
		return nil, err
	}
	switch ep.Transport {
	case providers.TransportResponses:
		return openai.NewResponses(ep)
	case providers.TransportCodex:
		return openai.NewCodex(ep)
	case providers.TransportAnthropic:
		return anthropic.New(ep)
	case providers.TransportChat:
		return openaichat.New(ep)
	}
	return nil, &providers.Error{Provider: ep.Ref.String(), Kind: providers.KindUnsupported,
		Message: "unknown transport " + string(ep.Transport), Err: providers.ErrUnsupportedTransport}
}

// Open returns the transport of a model ref. baseURL "" uses the vendor
// default; a provider id without a built-in transport (ollama, vllm,
// openrouter, ...) is an OpenAI-compatible Chat Completions endpoint and
// needs baseURL. client nil uses a new default client.
func Open(ref, baseURL string, key providers.Secret, client *http.Client) (providers.Provider, error) {
	r, err := providers.ParseModelRef(ref)
	if err != nil {
		return nil, err
	}
	ep := providers.Endpoint{Ref: r, BaseURL: baseURL, APIKey: key, HTTPClient: client}
	if _, builtin := providers.DefaultTransport(r.Provider); !builtin && baseURL != "" {
		ep.Transport = providers.TransportChat
	}
	return New(ep)
}

// Chain returns a chain over endpoints in order, each candidate with the
// breaker breakers hands out for its ref (nil: no breakers). An endpoint
// whose transport cannot be built stays in the chain as a
// providers.Rejected candidate, so the rejection shows in the timeline and
// the round falls back past it.
func Chain(policy providers.RetryPolicy, endpoints []providers.Endpoint, breakers *providers.BreakerSet,
	opts ...providers.ChainOption) (*providers.Chain, error) {
	return ChainWith(policy, endpoints, breakers, nil, opts...)
}

// Wrap puts a candidate's transport behind something else (the runtime's
// transport actor for that candidate, say) and returns what the chain
// calls instead.
type Wrap func(ref string, p providers.Provider) (providers.Provider, error)

// ChainWith is Chain with each built transport passed through wrap (nil:
// none). A candidate wrap refuses is rejected like an unbuildable one.
func ChainWith(policy providers.RetryPolicy, endpoints []providers.Endpoint, breakers *providers.BreakerSet,
	wrap Wrap, opts ...providers.ChainOption) (*providers.Chain, error) {
	cands := make([]providers.Candidate, 0, len(endpoints))
	for _, ep := range endpoints {
		ref := ep.Ref.String()
		p, err := New(ep)
		if err == nil && wrap != nil {
			p, err = wrap(ref, p)
		}
		if err != nil {
			p = providers.Rejected{Ref: ref, Err: err}
		}
		c := providers.Candidate{ModelRef: ref, Provider: p}
		if breakers != nil {
			c.Breaker = breakers.For(ref)
		}
		cands = append(cands, c)
	}
	return providers.NewChain(policy, cands, opts...)
}
