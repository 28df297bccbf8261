package telemetry

import (
	"errors"
	"fmt"
	"net/url"
	"os"
)

// ErrConfig is wrapped by Config.Validate.
var ErrConfig = errors.New("telemetry: invalid configuration")

// Config says what a Telemetry exports.
type Config struct {
	// OTLPEndpoint is the OTLP/HTTP endpoint spans go to, a URL such as
	// http://127.0.0.1:4318 (/v1/traces is added when the path is empty).
	// Empty: the standard OTEL_EXPORTER_OTLP_ENDPOINT or
	// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT variables, and when neither is
	// set, no tracing.
	OTLPEndpoint string
	// CaptureContent puts message content (the model's text, tool
	// arguments and results) on spans, redacted by Secrets. Off by
	// default: spans carry sizes, names and ids only.
	CaptureContent bool
	// AgentLabels is how many agents get their own agent_id label on the
	// per-agent metrics (the first ones seen; the others count as
	// "other"). 0, the default, leaves the per-agent metrics out.
	AgentLabels int
	// ServiceName and Version name the runtime in the exported resource.
	ServiceName, Version string
	// Env reads the environment; nil means os.Getenv.
	Env func(string) string
}

// MaxAgentLabels bounds Config.AgentLabels: the per-agent series stay few.
const MaxAgentLabels = 1000

// Validate reports a setting that cannot work, saying what to give.
func (c Config) Validate() error {
	if c.AgentLabels < 0 || c.AgentLabels > MaxAgentLabels {
		return fmt.Errorf("%w: --metrics-agent-labels %d: give 0 (no per-agent metrics) up to %d", ErrConfig, c.AgentLabels, MaxAgentLabels)
	}
	if c.OTLPEndpoint != "" {
		u, err := url.Parse(c.OTLPEndpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%w: --otlp-endpoint %q: give an http:// or https:// URL of an OTLP/HTTP receiver, e.g. http://127.0.0.1:4318", ErrConfig, c.OTLPEndpoint)
		}
	}
	return nil
}

// Tracing reports whether c turns tracing on: an endpoint is given, by
// the flag or by the standard variables.
func (c Config) Tracing() bool {
	return c.OTLPEndpoint != "" || c.getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || c.getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

func (c Config) getenv(k string) string {
	if c.Env != nil {
		return c.Env(k)
	}
	return os.Getenv(k)
}
