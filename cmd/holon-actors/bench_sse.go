package main

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/bench"
)

// benchSSECmd is `holon-actors bench sse`.
type benchSSECmd struct {
	benchFlags `embed:""`

	Subscribers int `help:"Event streams held open on one agent at once (the server's cap is set to it)." default:"500"`
	Events      int `help:"Large events appended while they follow, each read by every subscriber before the next." default:"20"`
	EventBytes  int `name:"event-bytes" help:"Size of each event's tool receipt." default:"1048576"`
}

// Run measures the event stream's memory and prints the result.
func (c *benchSSECmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.SSEConfig{Dir: dir, Subscribers: c.Subscribers, Events: c.Events, EventBytes: c.EventBytes,
			Keep: c.Keep, Logger: e.log}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.SSE(ctx, cfg)
		return r, sseRows(r), err
	})
}

func sseRows(r bench.SSEResult) [][2]string {
	mib := func(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
	return [][2]string{
		{"workload", fmt.Sprintf("%d subscribers on one agent, %d events of %d bytes (%d bytes served each)", r.Subscribers, r.Events, r.EventBytes, r.FrameBytes)},
		{"served", fmt.Sprintf("%.0f MB/s (%.2f s)", r.MBPerSec, r.Seconds)},
		{"RSS baseline", mib(r.RSSBaselineBytes)},
		{"RSS connected, idle", mib(r.RSSConnectedBytes)},
		{"RSS peak", fmt.Sprintf("%s (%s over baseline; budget %s)", mib(r.RSSPeakBytes), mib(r.PeakOverBaselineBytes), mib(bench.SSEPeakBudgetBytes))},
		{"heap peak", mib(int64(r.HeapPeakBytes))},
		{"RSS after close", fmt.Sprintf("%s (%s over baseline)", mib(r.RSSAfterBytes), mib(r.RetainedBytes))},
		{"anonymous RSS", fmt.Sprintf("%s baseline, %s peak, %s after close (budget: %s left; the rest maps the store's files)",
			mib(r.AnonBaselineBytes), mib(r.AnonPeakBytes), mib(r.AnonAfterBytes), mib(bench.SSERetainedBudgetBytes))},
		{"within budget", fmt.Sprint(r.WithinBudget)},
		{"replay peak", fmt.Sprintf("%s over baseline: %d streams reconnecting from the start, %d events each (%.2f s)",
			mib(r.ReplayPeakOverBaselineBytes), r.Subscribers, r.Events+1, r.ReplaySeconds)},
		{"over the cap", fmt.Sprintf("HTTP %d", r.Refused)},
	}
}
