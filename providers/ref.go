package providers

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// ModelRef names a model as "<provider>/<model>": "openai/gpt-5",
// "openai-codex/gpt-5-codex", "anthropic/claude-sonnet-4-5", or a named
// OpenAI-compatible endpoint such as "ollama/llama3.2". The model part may
// itself contain slashes ("openrouter/meta-llama/llama-3-8b").
type ModelRef struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// ErrBadModelRef is wrapped by ParseModelRef errors.
var ErrBadModelRef = errors.New("providers: malformed model ref")

// ParseModelRef splits s at its first slash.
func ParseModelRef(s string) (ModelRef, error) {
	p, m, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok || p == "" || m == "" {
		return ModelRef{}, fmt.Errorf("parse model ref %q: want <provider>/<model>: %w", s, ErrBadModelRef)
	}
	return ModelRef{Provider: p, Model: m}, nil
}

// String returns "<provider>/<model>".
func (r ModelRef) String() string { return r.Provider + "/" + r.Model }

// providerOf returns the provider part of a model ref string.
func providerOf(ref string) string {
	p, _, _ := strings.Cut(ref, "/")
	return p
}

// Transport is a provider transport contract.
type Transport string

// The transport contracts of phase 1.
const (
	// TransportResponses is OpenAI Responses, non-streaming JSON (openai/*).
	TransportResponses Transport = "openai_responses"
	// TransportCodex is OpenAI Responses streaming over SSE with the Codex
	// request rules (openai-codex/*).
	TransportCodex Transport = "openai_codex_responses"
	// TransportAnthropic is Anthropic Messages, non-streaming (anthropic/*).
	TransportAnthropic Transport = "anthropic_messages"
	// TransportChat is OpenAI-compatible Chat Completions at any base URL.
	TransportChat Transport = "openai_chat_completions"
)

// String returns the transport as spelled in configuration.
func (t Transport) String() string { return string(t) }

// Valid reports whether t is a known transport contract.
func (t Transport) Valid() bool {
	switch t {
	case TransportResponses, TransportCodex, TransportAnthropic, TransportChat:
		return true
	}
	return false
}

// DefaultTransport returns the built-in transport of a provider id, false
// for ids that need explicit configuration.
func DefaultTransport(provider string) (Transport, bool) {
	switch provider {
	case "openai":
		return TransportResponses, true
	case "openai-codex":
		return TransportCodex, true
	case "anthropic":
		return TransportAnthropic, true
	}
	return "", false
}

// DefaultBaseURL returns the vendor base URL of a built-in provider id, ""
// when there is none.
func DefaultBaseURL(provider string) string {
	switch provider {
	case "openai":
		return "https://api.openai.com/v1/"
	case "openai-codex":
		return "https://chatgpt.com/backend-api/codex/"
	case "anthropic":
		return "https://api.anthropic.com/"
	}
	return ""
}

// Endpoint is everything a transport needs to reach one candidate. It is
// safe to log and marshal: the key is a Secret.
type Endpoint struct {
	Ref       ModelRef  `json:"ref"`
	Transport Transport `json:"transport"`
	BaseURL   string    `json:"base_url"`
	APIKey    Secret    `json:"api_key,omitempty"`
	// MaxOutputTokens caps the reply where the transport sends a cap;
	// 0 uses the transport's default. The Codex transport never sends it.
	MaxOutputTokens int64 `json:"max_output_tokens,omitempty"`
	// Schema is how tool schemas are emitted (default Relaxed).
	Schema SchemaMode `json:"schema_mode,omitempty"`
	// Incremental lets the OpenAI Responses transport continue with
	// previous_response_id when a request strictly extends the last one
	// of the same agent and cache key (capability incremental_responses).
	Incremental bool `json:"incremental_responses,omitempty"`
	// HTTPClient is the client to use; nil means a new default client.
	HTTPClient *http.Client `json:"-"`
}

// ErrUnsupportedTransport is wrapped when a candidate's transport contract
// is unknown or does not fit its provider: selection fails closed.
var ErrUnsupportedTransport = errors.New("providers: unsupported transport contract")

// Resolve fills Transport and BaseURL from the built-in defaults of the
// ref's provider and checks the result. A provider without a default
// transport must name one; an unknown transport fails closed with an
// *Error of KindUnsupported.
func (e Endpoint) Resolve() (Endpoint, error) {
	if e.Transport == "" {
		t, ok := DefaultTransport(e.Ref.Provider)
		if !ok {
			return e, e.unsupported("no transport configured for provider " + e.Ref.Provider)
		}
		e.Transport = t
	}
	if !e.Transport.Valid() {
		return e, e.unsupported("unknown transport " + string(e.Transport))
	}
	if e.BaseURL == "" {
		e.BaseURL = DefaultBaseURL(e.Ref.Provider)
	}
	if e.BaseURL == "" {
		return e, &Error{Provider: e.Ref.String(), Kind: KindNotConfigured, Message: "no base url configured"}
	}
	return e, nil
}

// ResolveAs is Resolve for a transport implementation: an empty Transport
// becomes want, and any other transport fails closed with KindUnsupported.
func (e Endpoint) ResolveAs(want Transport) (Endpoint, error) {
	if e.Transport == "" {
		e.Transport = want
	}
	e, err := e.Resolve()
	if err != nil {
		return e, err
	}
	if e.Transport != want {
		return e, e.unsupported("transport " + string(e.Transport) + " is not " + string(want))
	}
	return e, nil
}

// Client is the endpoint's HTTP client: HTTPClient, or the one every
// endpoint without its own shares (SharedClient).
func (e Endpoint) Client() *http.Client {
	if e.HTTPClient == nil {
		return sharedClient
	}
	return e.HTTPClient
}

// SharedClient is the HTTP client of endpoints without their own. Unlike
// net/http's default transport, which keeps 2 idle connections per host,
// it keeps up to MaxIdleConnsPerHost, so many agents calling one
// HTTP/1.1 server (Ollama, vLLM, llama.cpp) reuse their connections
// instead of opening and closing one per round. HTTPS servers get HTTP/2.
// No overall timeout: a model round may stream for minutes, and the
// retry policy's attempt timeout bounds it.
func SharedClient() *http.Client { return sharedClient }

// MaxIdleConnsPerHost is how many idle connections SharedClient keeps
// per server.
const MaxIdleConnsPerHost = 64

var sharedClient = &http.Client{Transport: sharedTransport()}

func sharedTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 4 * MaxIdleConnsPerHost
	t.MaxIdleConnsPerHost = MaxIdleConnsPerHost
	t.ForceAttemptHTTP2 = true
	return t
}

func (e Endpoint) unsupported(msg string) error {
	return &Error{Provider: e.Ref.String(), Kind: KindUnsupported, Message: msg, Err: ErrUnsupportedTransport,
		Diagnostics: &TransportDiagnostics{Stage: StageCandidate, Provider: e.Ref.Provider, ModelRef: e.Ref.String()}}
}

// Secret is a credential. It prints and marshals as "[redacted]"; only
// Reveal returns the value, for the transport that sends it.
type Secret string

const redacted = "[redacted]"

// Reveal returns the credential itself.
func (s Secret) Reveal() string { return string(s) }

// Present reports whether a credential is set.
func (s Secret) Present() bool { return s != "" }

// String returns "[redacted]", or "" for an empty secret.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString keeps %#v redacted.
func (s Secret) GoString() string { return fmt.Sprintf("%q", s.String()) }

// Format keeps every fmt verb redacted.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(s.String())) }

// MarshalText marshals the redaction, never the value.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }
