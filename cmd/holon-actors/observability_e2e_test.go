package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// collector is a tiny OTLP/HTTP trace receiver on loopback: it decodes
// each export request with the OTLP protobuf types and keeps the spans.
type collector struct {
	srv *httptest.Server

	mu    sync.Mutex
	spans []*tracepb.Span
	got   chan struct{} // signalled (never closed) after each export; buffered 1
}

func newCollector(t *testing.T) *collector {
	c := &collector{got: make(chan struct{}, 1)}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		var req coltracepb.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(body, &req)
		}
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
			t.Errorf("export %s %s: %v", r.URL.Path, r.Header.Get("Content-Type"), err)
			http.Error(w, "bad export", http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				c.spans = append(c.spans, ss.Spans...)
			}
		}
		c.mu.Unlock()
		resp, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(resp)
		select {
		case c.got <- struct{}{}:
		default:
		}
	}))
	t.Cleanup(c.srv.Close)
	return c
}

// waitSpan waits for a span named name.
func (c *collector) waitSpan(t *testing.T, name string) *tracepb.Span {
	t.Helper()
	deadline := time.After(e2eWait)
	for {
		c.mu.Lock()
		for _, s := range c.spans {
			if s.Name == name {
				c.mu.Unlock()
				return s
			}
		}
		c.mu.Unlock()
		select {
		case <-c.got:
		case <-deadline:
			t.Fatalf("no span %q received after %s", name, e2eWait)
		}
	}
}

func spanAttr(s *tracepb.Span, key string) string {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			v := kv.Value
			switch {
			case v.GetStringValue() != "":
				return v.GetStringValue()
			case v.GetIntValue() != 0:
				return "int"
			}
		}
	}
	return ""
}

// TestRunExportsTracesAndMetrics: the real binary, run with
// --otlp-endpoint and --metrics-listen, exports a scripted turn with a
// tool call to a collector on loopback (invoke_agent with its chat and
// execute_tool spans, GenAI attributes), serves its counts at /metrics in
// the Prometheus text format, and names the turn's trace in its events'
// provenance.
func TestRunExportsTracesAndMetrics(t *testing.T) {
	t.Parallel()
	col := newCollector(t)
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [
    {"text": "Running it.", "tool_calls": [{"id": "call_e2e", "name": "ExecCommand", "arguments": {"cmd": "echo traced"}}]},
    {"text": "It printed traced."}
  ], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script,
		"--otlp-endpoint", col.srv.URL, "--metrics-listen", "127.0.0.1:0")
	if code, out, errOut := client(t, home, "prompt", "--wait", "run it"); code != 0 || !strings.Contains(out, "It printed traced.") {
		t.Fatalf("prompt --wait = %d %q %q", code, out, errOut)
	}

	addr := regexp.MustCompile(`"addr":"(127\.0\.0\.1:\d+)"[^\n]*metrics on TCP|metrics on TCP[^\n]*"addr":"(127\.0\.0\.1:\d+)"`).FindStringSubmatch(d.output())
	if addr == nil {
		t.Fatalf("no metrics address logged:\n%s", d.output())
	}
	resp, err := http.Get("http://" + addr[1] + addr[2] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	counter := func(name string, labels ...string) float64 {
		var n float64
		for _, m := range fams[name].GetMetric() {
			got := map[string]string{}
			for _, l := range m.Label {
				got[l.GetName()] = l.GetValue()
			}
			ok := true
			for i := 0; i+1 < len(labels); i += 2 {
				ok = ok && got[labels[i]] == labels[i+1]
			}
			if ok {
				n += m.GetCounter().GetValue()
			}
		}
		return n
	}
	if got := counter("holon_turns_completed_total"); got != 1 {
		t.Errorf("holon_turns_completed_total = %v, want 1", got)
	}
	if got := counter("holon_tool_calls_total", "tool", "ExecCommand", "status", "ok"); got != 1 {
		t.Errorf("holon_tool_calls_total{tool=ExecCommand,status=ok} = %v, want 1", got)
	}
	for _, name := range []string{"holon_agents_active", "holon_recovery_seconds", "holon_event_streams_open", "holon_journal_append_duration_seconds", "go_goroutines",
		"holon_mailbox_queue_depth", "holon_agents_passivated", "holon_agents_quarantined", "holon_tasks_running",
		"holon_timers_pending", "holon_snapshot_save_duration_seconds"} {
		if fams[name] == nil {
			t.Errorf("no %s in /metrics", name)
		}
	}

	// The journal names the trace: an operator jumps from an event to it.
	code, out, _ := client(t, home, "--json", "tail")
	traceID := ""
	for _, line := range strings.Split(out, "\n") {
		var ev control.StreamEvent
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Provenance.Kind == messages.EventMessageProcessingStarted {
			traceID = ev.Provenance.TraceID
		}
	}
	if code != 0 {
		t.Fatalf("tail = %d", code)
	}

	d.stop() // a clean stop flushes the spans still batched
	turn := col.waitSpan(t, "invoke_agent main")
	tool := col.waitSpan(t, "execute_tool ExecCommand")
	chat := col.waitSpan(t, "chat scripted")
	if spanAttr(turn, "gen_ai.agent.id") != "main" || spanAttr(turn, "gen_ai.conversation.id") != "main" ||
		spanAttr(tool, "gen_ai.tool.call.id") != "call_e2e" || spanAttr(chat, "gen_ai.operation.name") != "chat" {
		t.Fatalf("span attributes: turn %v, tool %v, chat %v", turn.Attributes, tool.Attributes, chat.Attributes)
	}
	if string(tool.ParentSpanId) != string(turn.SpanId) || string(chat.ParentSpanId) != string(turn.SpanId) {
		t.Fatalf("tool and chat spans are not under the turn's")
	}

	if traceID == "" || traceID != hexOf(turn.TraceId) {
		t.Fatalf("provenance trace_id %q, want the exported turn's %s", traceID, hexOf(turn.TraceId))
	}
}

// TestRunRefusesPublicMetricsAndBadEndpoint: a metrics listener beyond
// loopback without --metrics-public, and an OTLP endpoint that is not an
// http(s) URL, are usage errors saying what to give; nothing starts. once
// refuses the flags it would ignore.
func TestRunRefusesPublicMetricsAndBadEndpoint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--metrics-listen", "0.0.0.0:9464"}, "--metrics-public"},
		{[]string{"--otlp-endpoint", "127.0.0.1:4318"}, "http://"},
		{[]string{"--metrics-agent-labels", "-1"}, "--metrics-agent-labels"},
		{[]string{"once", "--otlp-endpoint", "http://127.0.0.1:4318", "hi"}, "exports no traces"},
	} {
		home := filepath.Join(t.TempDir(), "home")
		args := append([]string{"run"}, tc.args...)
		if tc.args[0] == "once" {
			args = tc.args
		}
		code, _, errOut := client(t, home, args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("run %v = %d %q, want exit %d naming %s", tc.args, code, errOut, exitUsage, tc.want)
		}
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
