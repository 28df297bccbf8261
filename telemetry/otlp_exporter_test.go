package telemetry

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver is an OTLP/HTTP receiver on loopback that keeps what it
// is sent and answers with the statuses queued in answers (200 after).
type otlpReceiver struct {
	*httptest.Server
	mu       sync.Mutex
	bodies   [][]byte
	requests []*http.Request
	answers  []int
	seen     chan struct{} // a value per request, until it is full
	reply    []byte        // the body of a 200 answer
}

func newOTLPReceiver(t *testing.T, answers ...int) *otlpReceiver {
	r := &otlpReceiver{answers: answers, seen: make(chan struct{}, 64)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		r.bodies, r.requests = append(r.bodies, body), append(r.requests, req)
		code, reply := http.StatusOK, r.reply
		if len(r.answers) > 0 {
			code, r.answers = r.answers[0], r.answers[1:]
		}
		r.mu.Unlock()
		select {
		case r.seen <- struct{}{}:
		default:
		}
		if code != http.StatusOK {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(code)
			_, _ = w.Write([]byte("busy"))
			return
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(reply)
	}))
	t.Cleanup(r.Close)
	return r
}

// last decodes the last request, gunzipping it when it says gzip.
func (r *otlpReceiver) last(t *testing.T) (*coltracepb.ExportTraceServiceRequest, *http.Request) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.bodies) == 0 {
		t.Fatal("the receiver got no request")
	}
	body, req := r.bodies[len(r.bodies)-1], r.requests[len(r.requests)-1]
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	var msg coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &msg); err != nil {
		t.Fatalf("decode the export request: %v", err)
	}
	return &msg, req
}

func (r *otlpReceiver) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.bodies)
}

// testSpans are spans with every field the OTLP span has set, and some
// left at their zero value, over two resources and three scopes.
func testSpans() []sdktrace.ReadOnlySpan {
	ts, _ := trace.ParseTraceState("vendor=a,other=b")
	sc := func(tid, sid byte, remote bool, flags trace.TraceFlags, st trace.TraceState) trace.SpanContext {
		return trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{tid, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
			SpanID: trace.SpanID{sid, 1, 2, 3, 4, 5, 6, 7}, TraceFlags: flags, TraceState: st, Remote: remote})
	}
	resA := resource.NewWithAttributes("https://opentelemetry.io/schemas/1.26.0",
		attribute.String("service.name", "holon-actors"), attribute.String("service.version", "v1"))
	resB := resource.NewSchemaless(attribute.String("service.name", "other"), attribute.Int64("pid", 42))
	scopeA := instrumentation.Scope{Name: "github.com/holon-actors/holon-actors/telemetry"}
	scopeB := instrumentation.Scope{Name: "b", Version: "1.2.3", SchemaURL: "https://example.com/schema",
		Attributes: attribute.NewSet(attribute.Bool("scoped", true))}
	t0 := time.Unix(1_700_000_000, 123456789)
	every := []attribute.KeyValue{
		attribute.String("gen_ai.agent.id", "main"), attribute.String("empty", ""),
		attribute.Bool("yes", true), attribute.Bool("no", false),
		attribute.Int64("gen_ai.usage.input_tokens", 1200), attribute.Int64("zero", 0), attribute.Int64("negative", -7),
		attribute.Float64("ratio", 0.25), attribute.Float64("fzero", 0),
		attribute.StringSlice("gen_ai.response.finish_reasons", []string{"stop", ""}), attribute.StringSlice("none", []string{}),
		attribute.BoolSlice("bools", []bool{true, false}), attribute.Int64Slice("ints", []int64{1, 0, -1}),
		attribute.Float64Slice("floats", []float64{1.5, 0}), {Key: "invalid"},
		attribute.String("long", strings.Repeat("x", 300)),
	}
	stubs := tracetest.SpanStubs{
		{Name: "invoke_agent main", SpanContext: sc(1, 1, false, trace.FlagsSampled, ts), SpanKind: trace.SpanKindInternal,
			StartTime: t0, EndTime: t0.Add(1700 * time.Millisecond), Attributes: every,
			Links: []sdktrace.Link{{SpanContext: sc(9, 9, true, trace.FlagsSampled, ts), Attributes: []attribute.KeyValue{attribute.String("holon.link", "spawned_by")}, DroppedAttributeCount: 2},
				{SpanContext: sc(8, 8, false, 0, trace.TraceState{})}},
			Status: sdktrace.Status{Code: codes.Error, Description: "turn failed"}, DroppedAttributes: 3, DroppedEvents: 1, DroppedLinks: 4,
			Resource: resA, InstrumentationScope: scopeA},
		{Name: "chat gpt-5", SpanContext: sc(1, 2, false, trace.FlagsSampled, trace.TraceState{}), Parent: sc(1, 1, false, trace.FlagsSampled, trace.TraceState{}),
			SpanKind: trace.SpanKindClient, StartTime: t0.Add(time.Millisecond), EndTime: t0.Add(900 * time.Millisecond),
			Attributes: every[:5], Events: []sdktrace.Event{{Name: "exception", Time: t0.Add(2 * time.Millisecond),
				Attributes: []attribute.KeyValue{attribute.String("exception.message", "boom")}, DroppedAttributeCount: 1}, {Name: "bare"}},
			Status: sdktrace.Status{Code: codes.Ok}, Resource: resA, InstrumentationScope: scopeA},
		{Name: "other scope", SpanContext: sc(2, 3, false, 0, trace.TraceState{}), Parent: sc(2, 4, true, 0, trace.TraceState{}),
			SpanKind: trace.SpanKindServer, StartTime: t0, Resource: resA, InstrumentationScope: scopeB},
		{Name: "other resource", SpanContext: sc(3, 5, false, trace.FlagsSampled, trace.TraceState{}), SpanKind: trace.SpanKindProducer,
			StartTime: t0, EndTime: t0, Resource: resB, InstrumentationScope: scopeA},
		{Name: "no scope", SpanContext: sc(3, 6, false, trace.FlagsSampled, trace.TraceState{}), SpanKind: trace.SpanKindConsumer,
			StartTime: t0, EndTime: t0.Add(time.Second), Resource: resB},
		{Name: "execute_tool echo", SpanContext: sc(1, 7, false, trace.FlagsSampled, trace.TraceState{}), Parent: sc(1, 2, false, trace.FlagsSampled, trace.TraceState{}),
			StartTime: t0.Add(900 * time.Millisecond), EndTime: t0.Add(903 * time.Millisecond),
			Attributes: []attribute.KeyValue{attribute.String("gen_ai.tool.name", "echo"), attribute.String("gen_ai.tool.call.id", "c1")},
			Resource:   resA, InstrumentationScope: scopeA},
	}
	return stubs.Snapshots()
}

// sortResources orders a request's ResourceSpans by their resource (the
// SDK's transform puts them in a map's order).
func sortResources(m *coltracepb.ExportTraceServiceRequest) {
	key := func(rs *tracepb.ResourceSpans) string {
		b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(rs.Resource)
		return string(b)
	}
	slices.SortFunc(m.ResourceSpans, func(a, b *tracepb.ResourceSpans) int { return strings.Compare(key(a), key(b)) })
}

// sdkRequest is what the SDK's own OTLP/HTTP exporter sends for spans.
func sdkRequest(t *testing.T, spans []sdktrace.ReadOnlySpan) *coltracepb.ExportTraceServiceRequest {
	t.Helper()
	recv := newOTLPReceiver(t)
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(recv.URL+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	if err := exp.ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	_ = exp.Shutdown(context.Background())
	msg, _ := recv.last(t)
	return msg
}

// TestOTLPExporterMatchesSDK: the request the exporter writes decodes,
// with the official OTLP types, to exactly what the SDK's own exporter
// sends for the same spans (resource, scope, ids, parent, trace state,
// kind, times, attributes of every type, events, links, status, flags,
// dropped counts), gzipped or not, twice in a row on the same buffers.
func TestOTLPExporterMatchesSDK(t *testing.T) {
	spans := testSpans()
	want := sdkRequest(t, spans)
	sortResources(want)
	for _, compression := range []string{"", "gzip"} {
		t.Run("compression="+compression, func(t *testing.T) {
			recv := newOTLPReceiver(t)
			env := map[string]string{"OTEL_EXPORTER_OTLP_COMPRESSION": compression}
			oc, err := Config{OTLPEndpoint: recv.URL, Env: func(k string) string { return env[k] }}.otlpSettings()
			if err != nil {
				t.Fatal(err)
			}
			x := newOTLPExporter(oc, "v1")
			for i := range 2 {
				if err := x.ExportSpans(context.Background(), spans); err != nil {
					t.Fatal(err)
				}
				got, req := recv.last(t)
				sortResources(got)
				if !proto.Equal(got, want) {
					t.Fatalf("export %d: the request differs from the SDK's.\ngot:\n%s\nwant:\n%s", i+1, prototext.Format(got), prototext.Format(want))
				}
				if req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/x-protobuf" || (req.Header.Get("Content-Encoding") == "gzip") != (compression == "gzip") {
					t.Fatalf("request %s with headers %v", req.URL.Path, req.Header)
				}
			}
		})
	}
}

// TestOTLPExporterTracerProvider: spans built by the SDK's tracer
// provider and batch processor reach the receiver through the exporter
// with their tree.
func TestOTLPExporterTracerProvider(t *testing.T) {
	recv := newOTLPReceiver(t)
	tel, err := New(Config{OTLPEndpoint: recv.URL, Env: func(string) string { return "" }}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, parent := tel.tracer.Start(context.Background(), "invoke_agent main")
	_, child := tel.tracer.Start(ctx, "chat gpt-5", trace.WithAttributes(attribute.Int64("gen_ai.usage.input_tokens", 10)))
	child.End()
	parent.End()
	if err := tel.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, _ := recv.last(t)
	spans := got.ResourceSpans[0].ScopeSpans[0].Spans
	if len(spans) != 2 || spans[0].Name != "chat gpt-5" || !bytes.Equal(spans[0].ParentSpanId, spans[1].SpanId) || spans[0].Attributes[0].Value.GetIntValue() != 10 {
		t.Fatalf("spans %s", prototext.Format(got))
	}
}

// TestOTLPExporterRetries: 429, 502, 503 and 504 are retried with
// backoff until the receiver takes the spans; another status is not,
// and says what the receiver answered.
func TestOTLPExporterRetries(t *testing.T) {
	spans := testSpans()
	for _, tc := range []struct {
		name     string
		answers  []int
		requests int
		err      string
	}{
		{"busy then taken", []int{503, 429, 502, 504}, 5, ""},
		{"refused", []int{400}, 1, "400 Bad Request: busy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recv := newOTLPReceiver(t, tc.answers...)
			x := newOTLPExporter(otlpConfig{url: recv.URL + "/v1/traces", timeout: time.Second}, "")
			x.retry = retryPolicy{initial: time.Millisecond, max: 2 * time.Millisecond, elapsed: time.Minute}
			err := x.ExportSpans(context.Background(), spans)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("err %v, want %q", err, tc.err)
			}
			if recv.count() != tc.requests {
				t.Fatalf("%d requests, want %d", recv.count(), tc.requests)
			}
		})
	}
}

// TestOTLPExporterPartialSuccess: spans a receiver says it rejected are
// an export error with its count and reason; an empty answer is not.
func TestOTLPExporterPartialSuccess(t *testing.T) {
	reply, err := proto.Marshal(&coltracepb.ExportTraceServiceResponse{PartialSuccess: &coltracepb.ExportTracePartialSuccess{RejectedSpans: 3, ErrorMessage: "too old"}})
	if err != nil {
		t.Fatal(err)
	}
	recv := newOTLPReceiver(t)
	recv.reply = reply
	x := newOTLPExporter(otlpConfig{url: recv.URL, timeout: time.Second}, "")
	if err := x.ExportSpans(context.Background(), testSpans()); err == nil || !strings.Contains(err.Error(), "rejected 3 spans: too old") {
		t.Fatalf("err %v, want the 3 rejected spans and why", err)
	}
	recv.mu.Lock()
	recv.reply = nil
	recv.mu.Unlock()
	if err := x.ExportSpans(context.Background(), testSpans()); err != nil {
		t.Fatal(err)
	}
}

// TestOTLPExporterRetryGivesUp: a receiver that stays busy is given up
// on once the next wait would pass the policy's elapsed time.
func TestOTLPExporterRetryGivesUp(t *testing.T) {
	recv := newOTLPReceiver(t, 503, 503, 503, 503, 503, 503, 503, 503)
	x := newOTLPExporter(otlpConfig{url: recv.URL, timeout: time.Second}, "")
	x.retry = retryPolicy{initial: 20 * time.Millisecond, max: 20 * time.Millisecond, elapsed: 50 * time.Millisecond}
	err := x.ExportSpans(context.Background(), testSpans())
	if err == nil || !strings.Contains(err.Error(), "gave up") || !strings.Contains(err.Error(), "503") {
		t.Fatalf("err %v, want it given up on a 503", err)
	}
	if n := recv.count(); n < 1 || n > 8 {
		t.Fatalf("%d requests, want at most as many as the receiver refuses", n)
	}
}

// TestOTLPExporterShutdown: an export waiting to retry ends at Shutdown,
// and exports after it fail.
func TestOTLPExporterShutdown(t *testing.T) {
	recv := newOTLPReceiver(t, 503)
	x := newOTLPExporter(otlpConfig{url: recv.URL, timeout: time.Second}, "")
	x.retry = retryPolicy{initial: time.Hour, max: time.Hour, elapsed: 24 * time.Hour}
	done := make(chan error, 1)
	go func() { done <- x.ExportSpans(context.Background(), testSpans()) }()
	select {
	case err := <-done:
		t.Fatalf("export ended before the receiver answered: %v", err)
	case <-recv.seen:
	}
	if err := x.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("export waiting to retry ended with %v, want it cancelled", err)
	}
	if err := x.ExportSpans(context.Background(), testSpans()); !errors.Is(err, errExporterStopped) {
		t.Fatalf("export after shutdown: %v", err)
	}
}

// TestOTLPSettings: the flag and the standard variables resolve as the
// SDK's exporter reads them, and a bad one is refused naming it.
func TestOTLPSettings(t *testing.T) {
	for _, tc := range []struct {
		name    string
		flag    string
		env     map[string]string
		url     string
		headers map[string]string
		gzip    bool
		timeout time.Duration
		err     string
	}{
		{name: "flag, no path", flag: "http://127.0.0.1:4318", url: "http://127.0.0.1:4318/v1/traces", timeout: 10 * time.Second},
		{name: "flag, its path kept", flag: "http://h:1/custom/traces", url: "http://h:1/custom/traces", timeout: 10 * time.Second},
		{name: "flag over the variables", flag: "http://h:1", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://other:2/x"}, url: "http://h:1/v1/traces", timeout: 10 * time.Second},
		{name: "base endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c:4318/otlp"}, url: "https://c:4318/otlp/v1/traces", timeout: 10 * time.Second},
		{name: "traces endpoint as given", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t:4318/my/path"}, url: "http://t:4318/my/path", timeout: 10 * time.Second},
		{name: "traces endpoint, no path", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t:4318"}, url: "http://t:4318/", timeout: 10 * time.Second},
		{name: "insecure", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c:4318", "OTEL_EXPORTER_OTLP_TRACES_INSECURE": "true"}, url: "http://c:4318/v1/traces", timeout: 10 * time.Second},
		{name: "headers, compression, timeout", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
			"OTEL_EXPORTER_OTLP_HEADERS": "a=1", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "api-key=s%20cret, x-team = ops",
			"OTEL_EXPORTER_OTLP_COMPRESSION": "none", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "gzip", "OTEL_EXPORTER_OTLP_TIMEOUT": "2500"},
			url: "http://c:4318/v1/traces", headers: map[string]string{"api-key": "s cret", "x-team": "ops"}, gzip: true, timeout: 2500 * time.Millisecond},
		{name: "endpoint with no scheme", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "c:4318"}, err: "OTEL_EXPORTER_OTLP_ENDPOINT"},
		{name: "bad header", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_EXPORTER_OTLP_HEADERS": "novalue"}, err: "OTEL_EXPORTER_OTLP_HEADERS"},
		{name: "bad compression", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "zstd"}, err: "give gzip or none"},
		{name: "bad timeout", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_EXPORTER_OTLP_TIMEOUT": "10s"}, err: "in milliseconds"},
		{name: "bad insecure", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_EXPORTER_OTLP_INSECURE": "maybe"}, err: "true or false"},
		{name: "missing CA file", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c", "OTEL_EXPORTER_OTLP_CERTIFICATE": "/nonexistent/ca.pem"}, err: "OTEL_EXPORTER_OTLP_CERTIFICATE"},
		{name: "client key alone", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c", "OTEL_EXPORTER_OTLP_CLIENT_KEY": "/k.pem"}, err: "give both"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{OTLPEndpoint: tc.flag, Env: func(k string) string { return tc.env[k] }}
			oc, err := c.otlpSettings()
			if tc.err != "" {
				if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want ErrConfig saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.headers == nil {
				tc.headers = map[string]string{}
			}
			if oc.url != tc.url || oc.gzip != tc.gzip || oc.timeout != tc.timeout || !mapsEqual(oc.headers, tc.headers) {
				t.Fatalf("got url %s gzip %v timeout %s headers %v", oc.url, oc.gzip, oc.timeout, oc.headers)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestOTLPProtocol: http/protobuf (or none) is this exporter; grpc and
// http/json keep the SDK's exporter, as before; anything else is refused.
func TestOTLPProtocol(t *testing.T) {
	for _, tc := range []struct {
		protocol string
		ours     bool
		err      bool
	}{{"", true, false}, {"http/protobuf", true, false}, {"grpc", false, false}, {"http/json", false, false}, {"carrier-pigeon", false, true}} {
		env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": tc.protocol}
		exp, err := newSpanExporter(Config{Env: func(k string) string { return env[k] }}, zerolog.Nop())
		if tc.err {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("protocol %q: err %v, want ErrConfig", tc.protocol, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, ours := exp.(*otlpExporter); ours != tc.ours {
			t.Fatalf("protocol %q: exporter %T", tc.protocol, exp)
		}
		_ = exp.Shutdown(context.Background())
	}
}

// BenchmarkOTLPExport is one export request of 2,048 spans (the batch
// size the runtime sends) to a receiver on loopback that reads and drops
// it, by the SDK's OTLP/HTTP exporter and by this one: the exporter's
// whole cost, encoding and request, per batch.
func BenchmarkOTLPExport(b *testing.B) {
	one := testSpans()
	spans := make([]sdktrace.ReadOnlySpan, 0, spanBatchSize)
	for len(spans) < spanBatchSize {
		spans = append(spans, one[len(spans)%len(one)])
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	defer srv.Close()
	sdk, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(srv.URL+"/v1/traces"))
	if err != nil {
		b.Fatal(err)
	}
	ours := newOTLPExporter(otlpConfig{url: srv.URL + "/v1/traces", timeout: 10 * time.Second}, "")
	for _, exp := range []struct {
		name string
		x    sdktrace.SpanExporter
	}{{"sdk", sdk}, {"ours", ours}} {
		b.Run(exp.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := exp.x.ExportSpans(context.Background(), spans); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
