package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/telemetry"
)

// ObservabilityConfig sets the workload of Observability.
type ObservabilityConfig struct {
	// Dir is the parent directory of the runs' stores (one per run).
	Dir string
	// Agents and Turns are each run's bench turns workload.
	Agents, Turns int
	// Pairs is how many runs with telemetry off and on it makes, one of
	// each per pair, alternating which goes first.
	Pairs int
	// Keep leaves the stores on disk.
	Keep   bool
	Logger *slog.Logger
}

// DefaultObservabilityConfig returns 3 pairs of 200 agents × 5 turns.
func DefaultObservabilityConfig(dir string) ObservabilityConfig {
	return ObservabilityConfig{Dir: dir, Agents: 200, Turns: 5, Pairs: 3}
}

// Validate reports the first setting that cannot run.
func (c ObservabilityConfig) Validate() error {
	return checkWorkload("observability", c.Dir, count{"agents", c.Agents}, count{"turns", c.Turns}, count{"pairs", c.Pairs})
}

// ObservabilityResult is what Observability measured.
type ObservabilityResult struct {
	Agents int `json:"agents"`
	Turns  int `json:"turns"` // per agent and run
	Pairs  int `json:"pairs"`
	// OffSeconds and OnSeconds are the runs' wall times (bench turns'
	// Seconds) with telemetry off and on, in the order they ran; an on
	// run's includes exporting the last of its spans (the exporter's
	// flush).
	OffSeconds []float64 `json:"off_seconds"`
	OnSeconds  []float64 `json:"on_seconds"`
	// ObservabilityOverheadRatio is the median on run's wall time over the
	// median off run's.
	ObservabilityOverheadRatio float64 `json:"observability_overhead_ratio"`
	// OffCPUSeconds and OnCPUSeconds are the CPU time (user and system)
	// this process used in each run's drive, receiver included; on a
	// machine shared with other work the CPU ratio (median on over median
	// off) is steadier than the wall-time one.
	OffCPUSeconds    []float64 `json:"off_cpu_seconds"`
	OnCPUSeconds     []float64 `json:"on_cpu_seconds"`
	CPUOverheadRatio float64   `json:"cpu_overhead_ratio"`
	// SpansExported and ExportRequests are what the loopback receiver
	// took from the on runs; MetricsBytes is the size of the /metrics
	// scrape taken after each on run (the last one).
	SpansExported  int64 `json:"spans_exported"`
	ExportRequests int64 `json:"export_requests"`
	MetricsBytes   int   `json:"metrics_bytes"`
}

// Observability runs the bench turns workload (see Turns) cfg.Pairs times
// with telemetry off and as many times on, alternating. On, every agent
// reports to one Telemetry that exports its spans over OTLP/HTTP to a
// receiver on loopback in this process and keeps its metrics, scraped
// over HTTP after the run. The receiver takes each request whole during
// the run and decodes it after (see receiver). Each run has a fresh store.
func Observability(ctx context.Context, cfg ObservabilityConfig) (ObservabilityResult, error) {
	if err := cfg.Validate(); err != nil {
		return ObservabilityResult{}, err
	}
	recv, err := startReceiver()
	if err != nil {
		return ObservabilityResult{}, err
	}
	defer recv.close()
	res := ObservabilityResult{Agents: cfg.Agents, Turns: cfg.Turns, Pairs: cfg.Pairs}
	for i := range 2 * cfg.Pairs {
		on := i%4 == 1 || i%4 == 2 // off, on, on, off, …
		secs, cpu, err := observedRun(ctx, cfg, filepath.Join(cfg.Dir, fmt.Sprintf("observability-%d", i)), on, recv)
		if err != nil {
			return ObservabilityResult{}, err
		}
		if on {
			res.OnSeconds, res.OnCPUSeconds = append(res.OnSeconds, secs), append(res.OnCPUSeconds, cpu)
		} else {
			res.OffSeconds, res.OffCPUSeconds = append(res.OffSeconds, secs), append(res.OffCPUSeconds, cpu)
		}
	}
	res.ObservabilityOverheadRatio = median(res.OnSeconds) / median(res.OffSeconds)
	res.CPUOverheadRatio = median(res.OnCPUSeconds) / median(res.OffCPUSeconds)
	res.SpansExported, res.ExportRequests, res.MetricsBytes = recv.spans.Load(), recv.requests.Load(), int(recv.metricsBytes.Load())
	return res, nil
}

// observedRun is one bench turns run in dir, with telemetry exporting to
// recv when on; it returns the drive's wall time and this process's CPU
// time during it.
func observedRun(ctx context.Context, cfg ObservabilityConfig, dir string, on bool, recv *receiver) (secs, cpu float64, err error) {
	var tel *telemetry.Telemetry
	if on {
		var err error
		tel, err = telemetry.New(telemetry.Config{OTLPEndpoint: recv.url}, telemetry.Options{Log: zerolog.Nop()})
		if err != nil {
			return 0, 0, err
		}
		recv.metrics.Store(tel.Metrics())
	}
	o := persistence.DefaultOptions(dir)
	o.Logger = cfg.Logger
	err = inFreshStore(ctx, o, dir, cfg.Keep, func(st *persistence.BadgerStore) (err error) {
		rt, err := newBenchRuntimeWith(st, cfg.Logger, tel)
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, closeRuntime(rt)) }()
		cpu0, cerr := processCPU(os.Getpid())
		elapsed, _, err := driveAll(ctx, rt, st, cfg.Agents, cfg.Turns, nil)
		elapsed += flushSpans(ctx, tel, &err)
		cpu1, cerr1 := processCPU(os.Getpid())
		secs, cpu = elapsed.Seconds(), (cpu1 - cpu0).Seconds()
		return errors.Join(err, cerr, cerr1)
	}, nil)
	if !on {
		return secs, cpu, err
	}
	flush, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	err = errors.Join(err, tel.Close(flush), recv.settle(), recv.scrape())
	return secs, cpu, err
}

// flushSpans exports the spans of the run's turns still in the exporter's
// queue (nil tel: none) and returns how long it took, joining its error
// to *err. The on run's time includes it: exporting every span of its
// turns is part of what tracing them costs, and without the flush the
// spans of the last batch (up to half of a run's) would be encoded and
// sent after the measured time.
func flushSpans(ctx context.Context, tel *telemetry.Telemetry, err *error) time.Duration {
	if tel == nil {
		return 0
	}
	start := time.Now()
	flush, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	*err = errors.Join(*err, tel.Flush(flush))
	return time.Since(start)
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// receiver is the OTLP/HTTP trace receiver on loopback the on runs export
// to; it also serves the current run's metrics at /metrics.
//
// It reads each export request whole while the run goes on and answers
// it, but decodes the requests only after the run (settle): a collector
// runs in another process, usually on another machine, and its decoding
// is not the runtime's cost, and in this process it took CPU from the
// measured run (about a seventh of the on runs' extra CPU time). What the
// runtime pays for its spans (building them, encoding them, sending them
// over HTTP) stays in the measured time.
type receiver struct {
	srv          *http.Server
	url          string
	done         chan error // the server's end; sent once by its goroutine
	spans        atomic.Int64
	requests     atomic.Int64
	metricsBytes atomic.Int64
	metrics      atomic.Pointer[telemetry.Metrics]

	mu      sync.Mutex
	pending [][]byte // requests received and not decoded yet
}

func startReceiver() (*receiver, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the OTLP receiver: %w", err)
	}
	r := &receiver{url: "http://" + l.Addr().String(), done: make(chan error, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/traces", r.export)
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, req *http.Request) { r.metrics.Load().Handler().ServeHTTP(w, req) })
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { r.done <- r.srv.Serve(l) }()
	return r, nil
}

// export takes one export request for settle and answers it with the
// (empty) ExportTraceServiceResponse.
func (r *receiver) export(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	r.pending = append(r.pending, body)
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(http.StatusOK) // an empty response encodes to no bytes
}

// settle decodes the requests taken since the last call and counts their
// spans; a request that is not an ExportTraceServiceRequest is an error.
func (r *receiver) settle() error {
	r.mu.Lock()
	pending := r.pending
	r.pending = nil
	r.mu.Unlock()
	for i, body := range pending {
		var msg coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &msg); err != nil {
			return fmt.Errorf("decode OTLP export request %d of %d: %w", i+1, len(pending), err)
		}
		r.requests.Add(1)
		for _, rs := range msg.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				r.spans.Add(int64(len(ss.Spans)))
			}
		}
	}
	return nil
}

// scrape reads /metrics once, as Prometheus would after a run.
func (r *receiver) scrape() error {
	resp, err := http.Get(r.url + "/metrics")
	if err != nil {
		return fmt.Errorf("scrape metrics: %w", err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return fmt.Errorf("scrape metrics: %d %v", resp.StatusCode, err)
	}
	r.metricsBytes.Store(n)
	return nil
}

func (r *receiver) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = r.srv.Shutdown(ctx)
	<-r.done
}
