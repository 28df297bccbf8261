package telemetry

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/secrets"
)

// Options are what a Telemetry is given besides its Config.
type Options struct {
	Log zerolog.Logger
	// Secrets redact captured content; nil redacts nothing.
	Secrets *secrets.Registry
	// Exporter, when set, receives every span synchronously instead of
	// the OTLP exporter (tests); it turns tracing on.
	Exporter sdktrace.SpanExporter
	// Registry, when set, is where the metrics are registered instead of
	// a registry of their own.
	Registry *prometheus.Registry
}

// Telemetry derives spans, metrics and log lines from agents' events.
// Safe for concurrent use; a nil *Telemetry does nothing.
type Telemetry struct {
	cfg     Config
	log     zerolog.Logger
	secrets *secrets.Registry
	metrics *Metrics

	// tp, tracer and spans are nil when tracing is off; spans builds
	// the SDK's spans off the agents' goroutines (span_queue.go).
	tp     *sdktrace.TracerProvider
	tracer trace.Tracer
	spans  *spanQueue

	// turns holds each agent's open turn (*turnTrace) by agent id: an
	// agent has one at most, its entry goes when the turn ends, and only
	// the agent's own actor touches it (Observe), so agents never wait
	// for each other here.
	turns sync.Map
	// spawns are the span contexts of the spawn calls whose children have
	// not started their first turn yet, by child agent id (bounded).
	spawnMu sync.Mutex
	spawns  map[string]trace.SpanContext
	// quarantined are the agents quarantined after repeated crashes.
	quarantined quarantineSet

	// names and finish cache what spans repeat (span_names.go).
	names   spanNames
	finish  sync.Map // stop reason → attribute.KeyValue
	finishN atomic.Int32
}

// maxSpawnLinks bounds Telemetry.spawns; beyond it the oldest-looking
// entry (any) is dropped: a lost link, never unbounded memory.
const maxSpawnLinks = 4096

// New builds the telemetry cfg describes; with tracing on it starts the
// OTLP exporter (its batch goroutine is stopped by Close). Errors wrap
// ErrConfig for a bad cfg.
func New(cfg Config, o Options) (*Telemetry, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	reg := o.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	t := &Telemetry{cfg: cfg, log: o.Log, secrets: o.Secrets, metrics: newMetrics(reg, cfg.AgentLabels),
		spawns: map[string]trace.SpanContext{}}
	if o.Exporter == nil && !cfg.Tracing() {
		return t, nil
	}
	var sp sdktrace.TracerProviderOption
	// With a test's exporter, spans are built as they are observed, so
	// the exporter holds a turn's spans when its last batch is observed.
	inline := o.Exporter != nil
	if o.Exporter != nil {
		sp = sdktrace.WithSyncer(o.Exporter)
	} else {
		exp, err := newSpanExporter(cfg, o.Log)
		if err != nil {
			return nil, err
		}
		sp = sdktrace.WithBatcher(exp, batchOptions(cfg)...)
	}
	ids := &idSource{}
	t.tp = sdktrace.NewTracerProvider(sp, sdktrace.WithIDGenerator(ids), sdktrace.WithResource(resource.NewSchemaless(
		attribute.String("service.name", orDefault(cfg.ServiceName, "holon-actors")),
		attribute.String("service.version", cfg.Version))))
	t.tracer = t.tp.Tracer("github.com/holon-actors/holon-actors/telemetry")
	t.spans = newSpanQueue(t.tracer, ids, inline)
	return t, nil
}

// Tracing reports whether spans are built.
func (t *Telemetry) Tracing() bool { return t != nil && t.tracer != nil }

// Metrics returns the metrics, nil for a nil Telemetry.
func (t *Telemetry) Metrics() *Metrics {
	if t == nil {
		return nil
	}
	return t.metrics
}

// Close ends the spans still open (their turns resume in another run),
// builds the spans still queued and flushes the exporter, within ctx.
func (t *Telemetry) Close(ctx context.Context) error {
	if t == nil || t.tp == nil {
		return nil
	}
	now := time.Now()
	t.turns.Range(func(id, tt any) bool {
		tt.(*turnTrace).end(now, "runtime_stopped")
		t.turns.Delete(id)
		return true
	})
	if err := t.spans.close(ctx); err != nil {
		return fmt.Errorf("build the queued spans: %w", err)
	}
	if err := t.tp.Shutdown(ctx); err != nil {
		return fmt.Errorf("flush traces: %w", err)
	}
	return nil
}

// Observe takes the batch agent agentID (of kind kind) is about to make
// durable at time at, and returns it with the turn's trace id stamped on
// the payloads that carry one (the same slice when none does, as with
// tracing off). It records the batch's spans, metrics and log lines.
func (t *Telemetry) Observe(agentID string, kind messages.AgentKind, at time.Time, batch []messages.Payload) []messages.Payload {
	return t.ObserveTurn(agentID, kind, at, OpenTurn{}, batch)
}

// ObserveTurn is Observe for an agent whose state has a turn in flight,
// open: what its state knows of that turn that the batch's events may not
// say (a turn resumed after a restart joins the trace its start
// journaled).
func (t *Telemetry) ObserveTurn(agentID string, kind messages.AgentKind, at time.Time, open OpenTurn, batch []messages.Payload) []messages.Payload {
	if t == nil {
		return batch
	}
	o := observation{t: t, agentID: agentID, kind: string(kind), at: at, open: open}
	o.turn = t.turn(agentID)
	out := batch
	for i, p := range batch {
		if q := o.payload(p, batch[i+1:]); q != nil {
			if &out[0] == &batch[0] {
				out = slices.Clone(batch) // stamped copies; the caller's batch stays as it was
			}
			out[i] = q
		}
	}
	return out
}

// ModelFailed records a model round of agentID's turn that failed after d
// (no provider_round_completed is journaled for it): a chat span with the
// error and the failure metric.
func (t *Telemetry) ModelFailed(agentID, model string, end time.Time, d time.Duration, kind string) {
	if t == nil {
		return
	}
	t.metrics.modelFailures.WithLabelValues(providerOf(model), kind).Inc()
	t.metrics.roundSeconds.WithLabelValues(providerOf(model)).Observe(d.Seconds())
	if t.tracer == nil {
		return
	}
	if tt := t.turn(agentID); tt != nil {
		tt.failedRound(t, model, end.Add(-d), end, kind)
	}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// turn is agentID's open turn, nil between turns.
func (t *Telemetry) turn(agentID string) *turnTrace {
	if tt, ok := t.turns.Load(agentID); ok {
		return tt.(*turnTrace)
	}
	return nil
}

// spawnedBy takes the spawn call agentID's first turn links to.
func (t *Telemetry) spawnedBy(agentID string) (trace.SpanContext, bool) {
	t.spawnMu.Lock()
	defer t.spawnMu.Unlock()
	sc, ok := t.spawns[agentID]
	delete(t.spawns, agentID)
	return sc, ok
}

// spawned remembers the spawn call sc of child; when maxSpawnLinks are
// kept, one (any) is dropped: a lost link, never unbounded memory.
func (t *Telemetry) spawned(child string, sc trace.SpanContext) {
	t.spawnMu.Lock()
	defer t.spawnMu.Unlock()
	if len(t.spawns) >= maxSpawnLinks {
		for k := range t.spawns {
			delete(t.spawns, k)
			break
		}
	}
	t.spawns[child] = sc
}
