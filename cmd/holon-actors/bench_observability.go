package main

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/bench"
)

// benchObservabilityCmd is `holon-actors bench observability`.
type benchObservabilityCmd struct {
	benchFlags `embed:""`

	Agents int `help:"Agents of each run, each sent its prompts by its own goroutine." default:"200"`
	Turns  int `help:"Prompts each agent answers per run." default:"5"`
	Pairs  int `help:"Runs with telemetry off and on, one of each per pair, alternating." default:"3"`
}

// Run measures the cost of traces and metrics and prints the result.
func (c *benchObservabilityCmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.ObservabilityConfig{Dir: dir, Agents: c.Agents, Turns: c.Turns, Pairs: c.Pairs, Keep: c.Keep, Logger: e.log}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.Observability(ctx, cfg)
		return r, [][2]string{
			{"workload", fmt.Sprintf("bench turns, %d agents × %d turns, %d runs off and %d on, alternating", r.Agents, r.Turns, r.Pairs, r.Pairs)},
			{"off runs", fmt.Sprintf("%.2f s", r.OffSeconds)},
			{"on runs", fmt.Sprintf("%.2f s (OTLP/HTTP to a loopback receiver, metrics scraped)", r.OnSeconds)},
			{"observability_overhead_ratio", fmt.Sprintf("%.3f (median on ÷ median off, wall time)", r.ObservabilityOverheadRatio)},
			{"cpu_overhead_ratio", fmt.Sprintf("%.3f (the same, CPU time of this process: off %.2f s, on %.2f s)", r.CPUOverheadRatio, r.OffCPUSeconds, r.OnCPUSeconds)},
			{"spans exported", fmt.Sprintf("%d in %d requests", r.SpansExported, r.ExportRequests)},
			{"metrics scrape", fmt.Sprintf("%d B", r.MetricsBytes)},
		}, err
	})
}
