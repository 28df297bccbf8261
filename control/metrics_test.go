package control_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestMetricsRoute: GET /metrics serves the Prometheus text format, which
// the Prometheus parser reads back, with the counts of a scripted turn
// (one tool call, two model rounds, their tokens), the runtime's gauges
// read at the scrape (the agent passivated, its timer pending, the
// mailbox bands, tasks, quarantines, a breaker opened) and the Go
// runtime's.
func TestMetricsRoute(t *testing.T) {
	tel, err := telemetry.New(telemetry.Config{}, telemetry.Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{testkit.Reply("Echoing.", testkit.Call("c1", "echo", `{"text":"hi"}`)), testkit.Reply("Done.")},
		Deps:  func(_ string, d *actors.AgentDeps) { d.Telemetry = tel },
	})
	h.Prompt("main", "Echo hi.")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	ctx := context.Background()
	if _, err := h.Runtime.CreateTimer(ctx, "main", actors.TimerRequest{Message: "Check the build.", Every: "1h"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Runtime.PassivateIdle(ctx); err != nil {
		t.Fatal(err)
	}
	tel.Metrics().WatchRuntime(h.Runtime)
	breakers := providers.NewBreakerSet(providers.BreakerConfig{Threshold: 1, Cooldown: time.Hour}, clockwork.NewFakeClock())
	breakers.For("openai/gpt-5").Failure()
	breakers.For("anthropic/claude").Success()
	tel.Metrics().WatchBreakers(func() map[string]string {
		out := map[string]string{}
		for ref, s := range breakers.States() {
			out[ref] = string(s)
		}
		return out
	})
	get := serve(t, control.Config{Runtime: h.Runtime, Store: h.Store(), Log: zerolog.Nop(), Metrics: tel.Metrics().Handler()})

	resp, body := get("/metrics")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /metrics = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parse /metrics: %v\n%s", err, body)
	}
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"holon_turns_started_total", nil, 1},
		{"holon_turns_completed_total", nil, 1},
		{"holon_tool_calls_total", map[string]string{"tool": "echo", "status": "ok"}, 1},
		{"holon_model_round_duration_seconds", map[string]string{"provider": "scripted"}, 2},
		{"holon_turn_duration_seconds", nil, 1},
		{"holon_journal_append_bytes_total", nil, -1},
		{"holon_snapshot_save_duration_seconds", nil, -1},
		{"holon_agents_passivated", nil, 1},
		{"holon_timers_pending", nil, 1},
		{"holon_tasks_running", nil, 0},
		{"holon_agents_quarantined", nil, 0},
		{"holon_mailbox_queue_depth", map[string]string{"band": "interject"}, 0},
		{"holon_provider_breaker_state", map[string]string{"model": "openai/gpt-5", "state": "open"}, 1},
		{"holon_provider_breaker_state", map[string]string{"model": "openai/gpt-5", "state": "closed"}, 0},
		{"holon_provider_breaker_state", map[string]string{"model": "anthropic/claude", "state": "closed"}, 1},
	} {
		if fams[c.name] == nil {
			t.Errorf("no %s", c.name)
			continue
		}
		if got := sum(fams[c.name], c.labels); (c.want >= 0 && got != c.want) || (c.want < 0 && got <= 0) {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if n := len(fams["holon_mailbox_queue_depth"].GetMetric()); n != 4 {
		t.Errorf("holon_mailbox_queue_depth has %d bands, want 4", n)
	}
	if fams["go_goroutines"] == nil {
		t.Error("no Go runtime metrics")
	}

	none := serve(t, control.Config{Runtime: h.Runtime, Store: h.Store(), Log: zerolog.Nop()})
	resp, body = none("/metrics")
	if fams, err := p.TextToMetricFamilies(strings.NewReader(body)); resp.StatusCode != http.StatusOK || err != nil || len(fams) != 0 || !strings.Contains(body, "no metrics") {
		t.Fatalf("GET /metrics without metrics = %d %q (%v)", resp.StatusCode, body, err)
	}
}

// sum adds the values (counts, for histograms) of fam's series that carry
// labels.
func sum(fam *dto.MetricFamily, labels map[string]string) float64 {
	if fam == nil {
		return 0
	}
	var n float64
	for _, m := range fam.Metric {
		match := true
		for k, v := range labels {
			found := false
			for _, l := range m.Label {
				found = found || (l.GetName() == k && l.GetValue() == v)
			}
			match = match && found
		}
		switch {
		case !match:
		case m.Counter != nil:
			n += m.Counter.GetValue()
		case m.Histogram != nil:
			n += float64(m.Histogram.GetSampleCount())
		case m.Gauge != nil:
			n += m.Gauge.GetValue()
		}
	}
	return n
}

// serve serves cfg on a unix socket until the test ends and returns a GET.
func serve(t *testing.T, cfg control.Config) func(path string) (*http.Response, string) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "c.sock")
	srv := control.NewServer(cfg)
	l, err := control.ListenUnix(sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		if err := srv.Close(context.Background()); err != nil {
			t.Errorf("close server: %v", err)
		}
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve = %v", err)
		}
	})
	return func(path string) (*http.Response, string) {
		t.Helper()
		resp, err := (&http.Client{Transport: tr}).Get("http://holon" + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp, b.String()
	}
}
