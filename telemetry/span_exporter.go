package telemetry

import (
	"context"
	"fmt"
	"net/url"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// newSpanExporter is the exporter the batch processor sends spans to:
// over OTLP/HTTP with protobuf bodies, the protocol the variables'
// default names, by otlpExporter. When OTEL_EXPORTER_OTLP_PROTOCOL (or
// …_TRACES_PROTOCOL) asks for grpc or http/json, which this build does
// not speak, it is the SDK's own OTLP/HTTP exporter, as before it, which
// sends protobuf over HTTP too; a warning says so.
func newSpanExporter(cfg Config, log zerolog.Logger) (sdktrace.SpanExporter, error) {
	switch protocol, name := cfg.otlpProtocol(); protocol {
	case "", "http/protobuf":
	case "grpc", "http/json":
		log.Warn().Str("variable", name).Str("protocol", protocol).
			Msg("traces are sent over OTLP/HTTP with protobuf bodies: this build has no " + protocol + " exporter")
		exp, err := otlptracehttp.New(context.Background(), sdkExporterOptions(cfg)...)
		if err != nil {
			return nil, fmt.Errorf("start the OTLP exporter: %w", err)
		}
		return exp, nil
	default:
		return nil, fmt.Errorf("%w: %s=%q: give http/protobuf (or grpc, http/json)", ErrConfig, name, protocol)
	}
	oc, err := cfg.otlpSettings()
	if err != nil {
		return nil, err
	}
	return newOTLPExporter(oc, cfg.Version), nil
}

// sdkExporterOptions points the SDK's exporter at cfg.OTLPEndpoint;
// without it the exporter reads the standard variables itself.
func sdkExporterOptions(cfg Config) []otlptracehttp.Option {
	if cfg.OTLPEndpoint == "" {
		return nil
	}
	u, _ := url.Parse(cfg.OTLPEndpoint) // Validate checked it
	if u.Path == "" || u.Path == "/" {
		u.Path = otlpTracesPath
	}
	return []otlptracehttp.Option{otlptracehttp.WithEndpointURL(u.String())}
}
