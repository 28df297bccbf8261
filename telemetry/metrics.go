package telemetry

import (
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the runtime's Prometheus metrics. Their labels are bounded:
// agent kinds, closures, terminal kinds, failure categories and statuses
// are enums; providers come from the configured model refs; tool names
// are capped at maxToolLabels (the rest count as "other"); agent ids only
// on holon_agent_turns_started_total, for the first Config.AgentLabels
// agents seen.
type Metrics struct {
	reg *prometheus.Registry

	turnsStarted   *prometheus.CounterVec
	turnsCompleted *prometheus.CounterVec
	turnsFailed    *prometheus.CounterVec
	turnSeconds    *prometheus.HistogramVec
	roundSeconds   *prometheus.HistogramVec
	tokens         *prometheus.CounterVec
	modelFailures  *prometheus.CounterVec
	retries        prometheus.Counter
	fallbacks      *prometheus.CounterVec
	toolCalls      *prometheus.CounterVec
	toolSeconds    *prometheus.HistogramVec
	failures       *prometheus.CounterVec
	statusChanges  *prometheus.CounterVec
	journalSeconds prometheus.Histogram
	journalBytes   prometheus.Counter
	snapshotSecs   prometheus.Histogram
	perAgent       *prometheus.CounterVec // nil when AgentLabels is 0

	byProvider *handleCache[providerHandles]
	byKind     *handleCache[kindHandles]
	byTool     *handleCache[toolHandles]

	mu         sync.RWMutex
	tools      map[string]bool // tool names with a label of their own
	agents     map[string]bool // agent ids with a label of their own
	agentLimit int
}

// maxToolLabels bounds the tool label: a model may call any name.
const maxToolLabels = 64

// latencyBuckets span a fast tool (1 ms) to a long turn (10 min).
var latencyBuckets = []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}

func newMetrics(reg *prometheus.Registry, agentLabels int) *Metrics {
	f := factory{reg}
	m := &Metrics{reg: reg, tools: map[string]bool{}, agents: map[string]bool{}, agentLimit: agentLabels,
		turnsStarted:   f.counter("holon_turns_started_total", "Turns started, by agent kind.", "agent_kind"),
		turnsCompleted: f.counter("holon_turns_completed_total", "Turns that completed, by agent kind and closure.", "agent_kind", "closure"),
		turnsFailed:    f.counter("holon_turns_failed_total", "Turns that ended without completing, by agent kind and terminal kind.", "agent_kind", "terminal"),
		turnSeconds:    f.histogram("holon_turn_duration_seconds", "Turn wall time, start to terminal.", "agent_kind"),
		roundSeconds:   f.histogram("holon_model_round_duration_seconds", "Model round latency (retries and fallbacks included), by provider.", "provider"),
		tokens:         f.counter("holon_model_tokens_total", "Tokens of model rounds, by provider and type (input, output, cache_read, cache_creation).", "provider", "type"),
		modelFailures:  f.counter("holon_model_failures_total", "Model rounds that failed, by provider and failure kind.", "provider", "kind"),
		fallbacks:      f.counter("holon_provider_fallbacks_total", "Model rounds a fallback model answered, by requested provider.", "provider"),
		toolCalls:      f.counter("holon_tool_calls_total", "Tool calls, by tool and status.", "tool", "status"),
		toolSeconds:    f.histogram("holon_tool_duration_seconds", "Tool call duration, by tool.", "tool"),
		failures:       f.counter("holon_runtime_errors_total", "Runtime errors journaled, by agent kind and failure category.", "agent_kind", "category"),
		statusChanges:  f.counter("holon_agent_status_changes_total", "Agent lifecycle changes, by new status.", "status"),
	}
	m.retries = prometheus.NewCounter(prometheus.CounterOpts{Name: "holon_provider_retries_total", Help: "Provider attempts beyond the first (in-round retries and durable model retries)."})
	m.journalSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "holon_journal_append_duration_seconds", Help: "Agents' journal appends, batch to durable.", Buckets: latencyBuckets})
	m.journalBytes = prometheus.NewCounter(prometheus.CounterOpts{Name: "holon_journal_append_bytes_total", Help: "Event payload bytes agents appended to their journals."})
	m.snapshotSecs = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "holon_snapshot_save_duration_seconds", Help: "Agents' snapshot saves between turns, state to durable.", Buckets: latencyBuckets})
	reg.MustRegister(m.retries, m.journalSeconds, m.journalBytes, m.snapshotSecs,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.cacheHandles()
	if agentLabels > 0 {
		m.perAgent = f.counter("holon_agent_turns_started_total", "Turns started by the first --metrics-agent-labels agents seen; the others count as other.", "agent_id")
	}
	return m
}

type factory struct{ reg *prometheus.Registry }

func (f factory) counter(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) histogram(name, help string, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: latencyBuckets}, labels)
	f.reg.MustRegister(h)
	return h
}

// Handler serves the metrics in the Prometheus text format; nil Metrics
// serve none.
func (m *Metrics) Handler() http.Handler {
	if m == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Registry is where the metrics are registered, for the runtime's gauges
// (agents, queues, streams) that others own.
func (m *Metrics) Registry() *prometheus.Registry {
	if m == nil {
		return nil
	}
	return m.reg
}

// JournalAppended records one agent journal append of bytes payload bytes
// that took d. Safe on nil.
func (m *Metrics) JournalAppended(d time.Duration, bytes int) {
	if m == nil {
		return
	}
	m.journalSeconds.Observe(d.Seconds())
	m.journalBytes.Add(float64(bytes))
}

// SnapshotSaved records one agent snapshot save that took d. Safe on nil.
func (m *Metrics) SnapshotSaved(d time.Duration) {
	if m == nil {
		return
	}
	m.snapshotSecs.Observe(d.Seconds())
}

// toolLabel is tool's label value: its name while fewer than
// maxToolLabels names have one, "other" after.
func (m *Metrics) toolLabel(tool string) string {
	m.mu.RLock()
	known := m.tools[tool]
	m.mu.RUnlock()
	if known {
		return tool
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.tools) >= maxToolLabels {
		return "other"
	}
	m.tools[tool] = true
	return tool
}

// agentTurns counts a turn of agentID on the per-agent metric, when on.
func (m *Metrics) agentTurns(agentID string) {
	if m.perAgent == nil {
		return
	}
	m.mu.Lock()
	label := agentID
	if !m.agents[agentID] {
		if len(m.agents) < m.agentLimit {
			m.agents[agentID] = true
		} else {
			label = "other"
		}
	}
	m.mu.Unlock()
	m.perAgent.WithLabelValues(label).Inc()
}
