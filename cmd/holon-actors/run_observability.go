package main

import (
	"fmt"

	"github.com/holon-actors/holon-actors/node"
	"github.com/holon-actors/holon-actors/telemetry"
)

// observabilityFlags are `run`'s traces and metrics flags.
type observabilityFlags struct {
	OTLPEndpoint   string `name:"otlp-endpoint" help:"Send traces (a span per turn, model round and tool call, GenAI conventions) to this OTLP/HTTP receiver, e.g. http://127.0.0.1:4318. Default: the standard OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; neither set, no tracing." env:"HOLON_OTLP_ENDPOINT" placeholder:"URL"`
	CaptureContent bool   `name:"otel-capture-content" help:"Put message content (model replies, tool arguments and results) on spans, redacted like the journal. Off: spans carry names, ids, sizes and tokens only." env:"HOLON_OTEL_CAPTURE_CONTENT"`
	MetricsListen  string `name:"metrics-listen" help:"Also serve GET /metrics (Prometheus text, no token) at HOST:PORT; loopback only unless --metrics-public. The control API serves /metrics anyway." env:"HOLON_METRICS_LISTEN" placeholder:"HOST:PORT"`
	MetricsPublic  bool   `name:"metrics-public" help:"Let --metrics-listen bind a non-loopback address (the metrics listener has no token)." env:"HOLON_METRICS_PUBLIC"`
	AgentLabels    int    `name:"metrics-agent-labels" help:"Give the first N agents seen their own agent_id label on holon_agent_turns_started_total (0: no per-agent series)." env:"HOLON_METRICS_AGENT_LABELS" default:"0" placeholder:"N"`
}

// observability maps the flags onto the node's configuration.
func (f observabilityFlags) observability() node.Observability {
	return node.Observability{
		Telemetry:     telemetry.Config{OTLPEndpoint: f.OTLPEndpoint, CaptureContent: f.CaptureContent, AgentLabels: f.AgentLabels},
		MetricsListen: f.MetricsListen, MetricsPublic: f.MetricsPublic,
	}
}

// unused refuses the flags for a command that exports no traces and
// serves no metrics (once, whose throwaway runtime ends with the run).
func (f observabilityFlags) unused(command string) error {
	if f.OTLPEndpoint != "" || f.CaptureContent || f.MetricsListen != "" || f.MetricsPublic || f.AgentLabels != 0 {
		return usage(fmt.Errorf("%s exports no traces and serves no metrics: drop --otlp-endpoint, --otel-capture-content and the --metrics-* flags (run takes them)", command))
	}
	return nil
}
