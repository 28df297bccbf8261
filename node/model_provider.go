package node

import (
	"errors"
	"sync"

	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/catalog"
	"github.com/holon-actors/holon-actors/providers/scripted"
)

// NoModelHint is what a prompt's failure brief says when no model is set.
const NoModelHint = "start the runtime with --model (or HOLON_MODEL, or \"model\" in $HOLON_HOME/config.json), " +
	"e.g. --model anthropic/claude-sonnet-4-5 with ANTHROPIC_API_KEY set, or --model scripted --script demo.json; " +
	"see the README's model configuration"

// ModelProvider is the agents' provider: a router over model chains whose
// candidates are served by the runtime's transport actors once
// UseTransports is called (before the first request).
type ModelProvider struct {
	*catalog.Router

	mu         sync.Mutex
	transports catalog.Wrap          // guarded by mu
	breakers   *providers.BreakerSet // guarded by mu; for BreakerStates
}

// NewModelProvider builds the provider of cfg, or says what is wrong: the
// scripted player of the script at scriptPath, a fallback chain over real
// transports (runtime-owned retries, per-candidate circuit breakers), or
// Unconfigured; wrapped in a router that serves per-agent overrides with
// chains of their own. getenv looks up the providers' key variables.
// Errors in cfg or the script match ErrConfig.
func NewModelProvider(cfg catalog.Config, scriptPath string, getenv func(string) string) (*ModelProvider, error) {
	var script *scripted.Provider
	if scriptPath != "" {
		s, err := scripted.Load(scriptPath)
		if err != nil {
			return nil, invalid(err)
		}
		script = scripted.New(s)
	}
	switch {
	case cfg.Model == "" && len(cfg.Fallback) > 0:
		return nil, invalid(errors.New("fallback models without a primary: set --model (or HOLON_MODEL, or model in the config file)"))
	case cfg.Model == scripted.Name && script == nil:
		return nil, invalid(errors.New("--model scripted needs --script FILE (or HOLON_SCRIPT)"))
	case cfg.Model != "" && cfg.Model != scripted.Name:
		// Checked now, built at the first request, once the runtime can
		// give each candidate its transport actor.
		if _, err := cfg.Endpoints(getenv); err != nil {
			return nil, invalid(err)
		}
	}
	mp := &ModelProvider{}
	name := cfg.Model
	if name == "" {
		name = providers.Unconfigured{}.Name()
	}
	mp.Router = catalog.NewLazyRouter(name, mp.builder(cfg, script, getenv))
	return mp, nil
}

// builder returns the router's chain builder for a model ref ("" is the
// configured model).
func (m *ModelProvider) builder(cfg catalog.Config, script *scripted.Provider, getenv func(string) string) func(string) (providers.Provider, error) {
	clock := clockwork.NewRealClock()
	breakers := providers.NewBreakerSet(providers.DefaultBreakerConfig(), clock)
	m.mu.Lock()
	m.breakers = breakers
	m.mu.Unlock()
	return func(model string) (providers.Provider, error) {
		switch {
		case model == "":
			model = cfg.Model
		case model == scripted.Name && script == nil:
			return nil, errors.New("model scripted needs the runtime started with --script")
		}
		switch model {
		case "":
			return providers.Unconfigured{Hint: NoModelHint}, nil
		case scripted.Name:
			return script, nil
		}
		eps, err := catalog.Config{Model: model, Fallback: cfg.Fallback, Providers: cfg.Providers}.Endpoints(getenv)
		if err != nil {
			return nil, err
		}
		return catalog.ChainWith(providers.DefaultRetryPolicy(), eps, breakers, m.wrap, providers.WithClock(clock))
	}
}

// UseTransports makes every candidate built from now on go through rt's
// transport actors.
func (m *ModelProvider) UseTransports(rt *actors.Runtime) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.transports = rt.Transport
}

// wrap is the catalog.Wrap of the chains: the transport actor when set.
func (m *ModelProvider) wrap(ref string, p providers.Provider) (providers.Provider, error) {
	m.mu.Lock()
	w := m.transports
	m.mu.Unlock()
	if w == nil {
		return p, nil
	}
	return w(ref, p)
}
