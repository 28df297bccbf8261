package node

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/holon-actors/holon-actors/telemetry"
)

// Observability configures a node's traces and metrics.
type Observability struct {
	Telemetry telemetry.Config
	// MetricsListen, when set, is a HOST:PORT that serves GET /metrics
	// alone, without a token (Prometheus scrapers send none). It must be
	// loopback unless MetricsPublic is set.
	MetricsListen string
	MetricsPublic bool
}

// check refuses a metrics address that cannot work or would publish the
// metrics without the operator asking.
func (o Observability) check() error {
	if o.MetricsListen == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(o.MetricsListen)
	if err != nil {
		return invalid(fmt.Errorf("--metrics-listen %q: want HOST:PORT, e.g. 127.0.0.1:9464", o.MetricsListen))
	}
	if !o.MetricsPublic && !loopback(host) {
		return invalid(fmt.Errorf("--metrics-listen %q serves metrics without a token beyond this machine: bind a loopback address (127.0.0.1:9464), or add --metrics-public to mean it", o.MetricsListen))
	}
	return nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}

// startTelemetry builds the node's telemetry (before the runtime, whose
// agents report to it) and the runtime gauges it owns.
func (n *Node) startTelemetry() error {
	o := n.cfg.Observability
	if err := o.check(); err != nil {
		return err
	}
	o.Telemetry.Version = n.cfg.Version
	tel, err := telemetry.New(o.Telemetry, telemetry.Options{Log: n.cfg.Log, Secrets: n.cfg.Secrets})
	if errors.Is(err, telemetry.ErrConfig) {
		return invalid(err)
	}
	if err != nil {
		return err
	}
	n.tel = tel
	if tel.Tracing() {
		n.cfg.Log.Info().Bool("capture_content", o.Telemetry.CaptureContent).Msg("tracing to OTLP")
	}
	return nil
}

// registerGauges adds the gauges read from the running runtime and the
// time its recovery took at start.
func (n *Node) registerGauges(recovery time.Duration) {
	rt := n.rt
	n.tel.Metrics().WatchRuntime(rt)
	if p := n.cfg.Provider; p != nil {
		n.tel.Metrics().WatchBreakers(p.BreakerStates)
	}
	n.tel.Metrics().Registry().MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "holon_agents_active", Help: "Agents with a live actor (the others are passivated: their state is on disk only).",
		}, func() float64 { return float64(len(rt.Active())) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "holon_recovery_seconds", Help: "How long the start's recovery of the agents with open work took.",
		}, func() float64 { return recovery.Seconds() }))
}

// registerStreams adds the gauge of the control server's open event
// streams.
func (n *Node) registerStreams() {
	srv := n.srv
	n.tel.Metrics().Registry().MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "holon_event_streams_open", Help: "Event streams (SSE) the control API serves now.",
	}, func() float64 { return float64(srv.OpenStreams()) }))
}

// serveMetrics serves GET /metrics on MetricsListen, when set.
func (n *Node) serveMetrics() error {
	addr := n.cfg.Observability.MetricsListen
	if addr == "" {
		return nil
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", n.tel.Metrics().Handler())
	n.metricsSrv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	n.metricsAddr = l.Addr().String()
	go func() { n.served <- metricsServed(n.metricsSrv.Serve(l)) }()
	n.cfg.Log.Info().Str("addr", n.metricsAddr).Msg("metrics on TCP")
	return nil
}

// metricsServed is the metrics server's end as Wait sees it: a close is
// no failure.
func metricsServed(err error) error {
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return fmt.Errorf("metrics server: %w", err)
}

// MetricsAddr is the address --metrics-listen bound ("" when off).
func (n *Node) MetricsAddr() string { return n.metricsAddr }

// stopTelemetry closes the metrics server and flushes the traces.
func (n *Node) stopTelemetry() error {
	var errs []error
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if n.metricsSrv != nil {
		errs = append(errs, n.metricsSrv.Shutdown(ctx))
	}
	errs = append(errs, n.tel.Close(ctx))
	return errors.Join(errs...)
}
