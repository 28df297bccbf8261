package telemetry

import "github.com/prometheus/client_golang/prometheus"

// breakerStates are the states a breaker gauge has a series for.
var breakerStates = []string{"closed", "open", "half_open"}

var breakerDesc = prometheus.NewDesc("holon_provider_breaker_state",
	"Provider circuit breakers: 1 on the series of each model ref's state now, 0 on the others.", []string{"model", "state"}, nil)

// WatchBreakers adds the gauge of the provider circuit breakers whose
// states (by model ref: closed, open or half_open) states reads at each
// scrape. Model refs come from the configuration, so the labels are
// bounded. Safe on nil.
func (m *Metrics) WatchBreakers(states func() map[string]string) {
	if m == nil {
		return
	}
	m.reg.MustRegister(breakerCollector{states})
}

type breakerCollector struct{ states func() map[string]string }

func (c breakerCollector) Describe(ch chan<- *prometheus.Desc) { ch <- breakerDesc }

func (c breakerCollector) Collect(ch chan<- prometheus.Metric) {
	for model, now := range c.states() {
		for _, s := range breakerStates {
			v := 0.0
			if s == now {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(breakerDesc, prometheus.GaugeValue, v, model, s)
		}
	}
}
