package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// Config is the model configuration of a runtime: the primary model, the
// fallback chain, and per-provider overrides. Credentials never live in
// it: each provider's key is read from an environment variable.
type Config struct {
	// Model is the primary model ref, e.g. "anthropic/claude-sonnet-4-5".
	Model string `json:"model,omitempty"`
	// Fallback lists the refs tried, in order, after the primary fails.
	Fallback []string `json:"fallback_models,omitempty"`
	// Providers overrides a provider id's endpoint ("ollama", "openai", …).
	Providers map[string]ProviderConfig `json:"providers,omitempty"`
	// SystemNotifications filters, at delivery time, the system
	// notifications the agents' models see, by source and by source.name:
	// {"kinds": {"mcp": {"enable": false}, "tool": {"waiting": false}}}.
	SystemNotifications messages.NotificationFilter `json:"system_notifications,omitzero"`
	// TokenBudget is the token budget of every agent that never had one
	// set (input plus output tokens of its model rounds and its private
	// descendants'); 0 means unlimited.
	TokenBudget uint64 `json:"token_budget,omitempty"`
	// LoopBreakerRepeats is how many identical tool calls with identical
	// results in a row end a turn; 0 means the default (4), negative
	// disables the loop breaker.
	LoopBreakerRepeats int `json:"loop_breaker_repeats,omitempty"`
	// CommandPolicy limits the commands agents run: a default for every
	// agent and per-agent entries (see messages.CommandPolicy). Absent,
	// commands are not limited.
	CommandPolicy messages.CommandPolicies `json:"command_policy,omitzero"`
	// Retention bounds the agents' journals: a default for every agent and
	// per-agent entries (see messages.RetentionPolicy). Absent, events a
	// week old, covered by a snapshot and behind the newest 10,000 are
	// archived.
	Retention messages.RetentionPolicies `json:"retention,omitzero"`
	// ToolApproval decides, by tool name pattern, which tool calls run
	// (auto), wait for the operator's yes (ask) or are refused (deny).
	ToolApproval messages.ToolApprovals `json:"tool_approval,omitzero"`
	// MCPServers and MCPAgents configure the MCP servers and which agents
	// use them; package mcp reads them (mcp.ParseConfig).
	MCPServers json.RawMessage `json:"mcp_servers,omitempty"`
	MCPAgents  json.RawMessage `json:"mcp_agents,omitempty"`
}

// ProviderConfig overrides one provider id's endpoint.
type ProviderConfig struct {
	// BaseURL replaces the vendor default; required for a provider id
	// without a built-in transport (an OpenAI-compatible server).
	BaseURL string `json:"base_url,omitempty"`
	// APIKeyEnv names the environment variable holding the key; default
	// KeyEnv(provider).
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// Transport forces a transport contract (responses, codex, anthropic,
	// chat); default: the provider's built-in one, or chat.
	Transport providers.Transport `json:"transport,omitempty"`
	// MaxOutputTokens caps replies where the transport sends a cap.
	MaxOutputTokens int64 `json:"max_output_tokens,omitempty"`
}

// LoadConfig reads a JSON config file; a missing file is an empty Config.
func LoadConfig(path string) (Config, error) {
	var c Config
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read model config: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("model config %s: %w", path, err)
	}
	if err := c.CommandPolicy.Validate(); err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	if err := c.ToolApproval.Validate(); err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	if err := c.Retention.Validate(); err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}

// KeyEnv is the default environment variable of a provider's API key:
// OPENAI_API_KEY for openai and openai-codex, ANTHROPIC_API_KEY for
// anthropic, HOLON_<PROVIDER>_API_KEY otherwise ("-" and "." become "_").
func KeyEnv(provider string) string {
	switch provider {
	case "openai", "openai-codex":
		return "OPENAI_API_KEY"
	case "anthropic":
		return "ANTHROPIC_API_KEY"
	}
	return "HOLON_" + envName(provider) + "_API_KEY"
}

// BaseURLEnv is the environment variable that overrides a provider's base
// URL: HOLON_<PROVIDER>_BASE_URL.
func BaseURLEnv(provider string) string { return "HOLON_" + envName(provider) + "_BASE_URL" }

func envName(provider string) string {
	return strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(provider))
}

// Endpoints resolves the configured refs, primary first, into endpoints,
// reading keys and base-URL overrides through getenv. It fails, naming
// what to set, for a bad ref, an OpenAI-compatible provider without a base
// URL, or a vendor provider without its key.
func (c Config) Endpoints(getenv func(string) string) ([]providers.Endpoint, error) {
	eps, problems := c.Inspect(getenv)
	for _, p := range problems {
		if p != nil {
			return nil, p
		}
	}
	return eps, nil
}

// Inspect resolves every configured ref as far as it can, for diagnosis:
// problems[i] is what is wrong with eps[i] (nil when nothing is).
func (c Config) Inspect(getenv func(string) string) (eps []providers.Endpoint, problems []error) {
	for _, raw := range append([]string{c.Model}, c.Fallback...) {
		ep, err := c.endpoint(raw, getenv)
		eps, problems = append(eps, ep), append(problems, err)
	}
	return eps, problems
}

func (c Config) endpoint(raw string, getenv func(string) string) (providers.Endpoint, error) {
	ref, err := providers.ParseModelRef(raw)
	if err != nil {
		return providers.Endpoint{}, err
	}
	pc := c.Providers[ref.Provider]
	ep := providers.Endpoint{Ref: ref, BaseURL: pc.BaseURL, Transport: pc.Transport, MaxOutputTokens: pc.MaxOutputTokens}
	if v := getenv(BaseURLEnv(ref.Provider)); v != "" {
		ep.BaseURL = v
	}
	keyEnv := pc.APIKeyEnv
	if keyEnv == "" {
		keyEnv = KeyEnv(ref.Provider)
	}
	ep.APIKey = providers.Secret(getenv(keyEnv))
	_, builtin := providers.DefaultTransport(ref.Provider)
	switch {
	case !builtin && ep.Transport == "" && ep.BaseURL == "":
		return ep, fmt.Errorf("model %s: %q is not a built-in provider, so it is an OpenAI-compatible server: set %s (e.g. http://localhost:11434/v1 for Ollama)",
			raw, ref.Provider, BaseURLEnv(ref.Provider))
	case !builtin && ep.Transport == "":
		ep.Transport = providers.TransportChat
	case builtin && !ep.APIKey.Present():
		return ep, fmt.Errorf("model %s needs an API key: set %s", raw, keyEnv)
	}
	if _, err := ep.Resolve(); err != nil {
		return ep, fmt.Errorf("model %s: %w", raw, err)
	}
	return ep, nil
}

// KeyEnvs names every environment variable the config reads a key from:
// each provider entry's api_key_env, and the default key variable of each
// configured model's provider. The runtime keeps them all from the
// commands its agents run.
func (c Config) KeyEnvs() []string {
	var names []string
	add := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(c.Providers)) {
		add(c.Providers[id].APIKeyEnv)
		add(KeyEnv(id))
	}
	for _, raw := range append([]string{c.Model}, c.Fallback...) {
		if ref, err := providers.ParseModelRef(raw); err == nil {
			add(KeyEnv(ref.Provider))
		}
	}
	return names
}

// BaseURLs are the base URLs the config and getenv name (a credential
// may ride in one as ?key=…), for the runtime's secret registry.
func (c Config) BaseURLs(getenv func(string) string) []string {
	var urls []string
	for _, id := range slices.Sorted(maps.Keys(c.Providers)) {
		if u := c.Providers[id].BaseURL; u != "" {
			urls = append(urls, u)
		}
		if u := getenv(BaseURLEnv(id)); u != "" {
			urls = append(urls, u)
		}
	}
	for _, raw := range append([]string{c.Model}, c.Fallback...) {
		if ref, err := providers.ParseModelRef(raw); err == nil {
			if u := getenv(BaseURLEnv(ref.Provider)); u != "" {
				urls = append(urls, u)
			}
		}
	}
	return urls
}
