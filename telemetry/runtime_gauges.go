package telemetry

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// RuntimeGauges is what a runtime reports of itself at each scrape.
type RuntimeGauges struct {
	// QueueDepth is the user messages waiting in agents' mailboxes, by
	// band (interject, next, normal, background).
	QueueDepth map[string]int
	// AgentsPassivated counts the agents with a journal and no live
	// actor: their state is on disk only.
	AgentsPassivated int
	// AgentsQuarantined counts the agents quarantined: stopped by their
	// supervision after repeated crashes (Telemetry.Quarantined), or
	// whose journal the store quarantined (it cannot be replayed).
	AgentsQuarantined int
	// TasksRunning counts the command tasks whose process this runtime
	// owns now.
	TasksRunning int
	// TimersPending counts the timers armed in the timer service.
	TimersPending int
}

// RuntimeView is the runtime as the gauges read it. Gauges should be
// cheap: it runs at every scrape.
type RuntimeView interface {
	Gauges(ctx context.Context) (RuntimeGauges, error)
}

// gaugeTimeout bounds a scrape's read of the runtime.
const gaugeTimeout = 5 * time.Second

// WatchRuntime adds the gauges read from v at each scrape. Safe on nil.
func (m *Metrics) WatchRuntime(v RuntimeView) {
	if m == nil {
		return
	}
	m.reg.MustRegister(runtimeCollector{v: v})
}

var (
	queueDepthDesc = prometheus.NewDesc("holon_mailbox_queue_depth",
		"User messages waiting in agents' mailboxes, by band.", []string{"band"}, nil)
	passivatedDesc = prometheus.NewDesc("holon_agents_passivated",
		"Agents with a journal and no live actor (their state is on disk only).", nil, nil)
	quarantinedDesc = prometheus.NewDesc("holon_agents_quarantined",
		"Agents quarantined: stopped after repeated crashes (until resumed), or whose journal cannot be replayed.", nil, nil)
	tasksDesc = prometheus.NewDesc("holon_tasks_running",
		"Command tasks whose process this runtime owns now.", nil, nil)
	timersDesc = prometheus.NewDesc("holon_timers_pending",
		"Timers armed in the timer service (agents' timers and cron included).", nil, nil)
)

// runtimeCollector reads a RuntimeView at each scrape. A read that fails
// reports none of its gauges rather than failing the scrape.
type runtimeCollector struct{ v RuntimeView }

func (c runtimeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{queueDepthDesc, passivatedDesc, quarantinedDesc, tasksDesc, timersDesc} {
		ch <- d
	}
}

func (c runtimeCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), gaugeTimeout)
	defer cancel()
	g, err := c.v.Gauges(ctx)
	if err != nil {
		return
	}
	for band, n := range g.QueueDepth {
		ch <- prometheus.MustNewConstMetric(queueDepthDesc, prometheus.GaugeValue, float64(n), band)
	}
	ch <- prometheus.MustNewConstMetric(passivatedDesc, prometheus.GaugeValue, float64(g.AgentsPassivated))
	ch <- prometheus.MustNewConstMetric(quarantinedDesc, prometheus.GaugeValue, float64(g.AgentsQuarantined))
	ch <- prometheus.MustNewConstMetric(tasksDesc, prometheus.GaugeValue, float64(g.TasksRunning))
	ch <- prometheus.MustNewConstMetric(timersDesc, prometheus.GaugeValue, float64(g.TimersPending))
}
