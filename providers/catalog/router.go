package catalog

import (
	"context"
	"sync"

	"github.com/holon-actors/holon-actors/providers"
)

// Router sends each request to the provider of its Request.Model (an
// agent's model override), or to the default provider when it is empty.
// Providers for overrides are built on first use and kept. It is safe for
// concurrent use.
type Router struct {
	name  string
	build func(model string) (providers.Provider, error)

	mu    sync.Mutex
	cache map[string]providers.Provider // guarded by mu
}

// NewRouter routes to def by default and to build(model) for overrides.
func NewRouter(def providers.Provider, build func(model string) (providers.Provider, error)) *Router {
	return &Router{name: def.Name(), build: build, cache: map[string]providers.Provider{"": def}}
}

// NewLazyRouter routes to build("") by default and to build(model) for
// overrides, building each on first use; name is the default's name.
func NewLazyRouter(name string, build func(model string) (providers.Provider, error)) *Router {
	return &Router{name: name, build: build, cache: map[string]providers.Provider{}}
}

// Name implements providers.Provider: the default's name.
func (r *Router) Name() string { return r.name }

// For returns the provider of model ("" is the default), building it on
// first use.
func (r *Router) For(model string) (providers.Provider, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.cache[model]; ok {
		return p, nil
	}
	p, err := r.build(model)
	if err != nil {
		return nil, err
	}
	r.cache[model] = p
	return p, nil
}

// Check reports whether a model override can be served.
func (r *Router) Check(model string) error {
	_, err := r.For(model)
	return err
}

// Complete implements providers.Provider.
func (r *Router) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	p, err := r.For(req.Model)
	if err != nil {
		who, hint := req.Model, " (clear or change the agent's model: holon-actors agents model)"
		if who == "" {
			who, hint = r.name, ""
		}
		return providers.Response{}, &providers.Error{Provider: who, Kind: providers.KindNotConfigured, Message: err.Error() + hint}
	}
	return p.Complete(ctx, req)
}
