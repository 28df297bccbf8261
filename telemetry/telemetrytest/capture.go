// Package telemetrytest gives tests a Telemetry whose spans they can read:
// each span goes, as it ends, to an in-memory exporter. It is imported
// only from _test.go files.
package telemetrytest

import (
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/holon-actors/holon-actors/telemetry"
)

// New returns a tracing Telemetry for cfg and o and the exporter its spans
// go to (o.Exporter is set here); it fails t if cfg is refused.
func New(t testing.TB, cfg telemetry.Config, o telemetry.Options) (*telemetry.Telemetry, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	o.Exporter = exp
	tel, err := telemetry.New(cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	return tel, exp
}

// Named returns the spans named name, in the order they ended.
func Named(spans tracetest.SpanStubs, name string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// Attr is the value of s's attribute key as text, "" when s has none.
func Attr(s tracetest.SpanStub, key string) string {
	for _, kv := range s.Attributes {
		if kv.Key == attribute.Key(key) {
			return kv.Value.Emit()
		}
	}
	return ""
}

// List lists spans one a line, each with its id and its parent's, for a
// failure message.
func List(spans []tracetest.SpanStub) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(s.Name + " span=" + s.SpanContext.SpanID().String() + " parent=" + s.Parent.SpanID().String() + "\n")
	}
	return b.String()
}
