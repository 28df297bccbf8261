// Package telemetry turns what agents journal into traces, metrics and
// log lines an operator reads in the tools they already run.
//
// A Telemetry is shared by every agent of a runtime. Agents hand it each
// batch of events they are about to make durable (Observe); it derives
// from them, with no further hooks in the agent: a span per turn
// (invoke_agent), per model round (chat), per tool call (execute_tool),
// a link from a child's first turn to its parent's spawn call, the
// Prometheus metrics of turns, rounds, tokens and tools, and one log line
// per turn end, failure and status change. Tracing is off unless Config
// names an OTLP endpoint (or the standard OTEL_EXPORTER_OTLP_* variables
// do); off, no span is built. A nil *Telemetry does nothing.
//
// Observe may run concurrently for different agents; for one agent it is
// called from that agent's actor only, in journal order. The agent only
// decides a batch's spans and stamps their ids; the SDK's spans are built
// on a goroutine the Telemetry owns (span_queue.go). Close builds what is
// queued, stops that goroutine and flushes the exporter, and must be
// called once, after the agents stopped.
//
// The SDK's batch processor hands the ended spans to the package's own
// OTLP/HTTP exporter (otlp_exporter.go), which writes them straight to
// the OTLP protobuf wire format (otlp_encode.go) and reads the standard
// OTEL_EXPORTER_OTLP_* variables as the SDK's exporter does
// (otlp_config.go).
//
// Attribute names follow the OpenTelemetry GenAI semantic conventions
// (genai.go). telemetry imports messages and secrets and nothing else
// from this module.
package telemetry
