package main

import (
	"context"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/bench"
)

// benchTimersCmd is `holon-actors bench timers`.
type benchTimersCmd struct {
	Timers   int           `help:"Agents, one recurring timer each." default:"10000"`
	Interval time.Duration `help:"Each timer's period: the target is every minute, run compressed 60× by default (every second, 60 times the fires per second)." default:"1s"`
	Duration time.Duration `help:"Measured window, after one interval of warm-up." default:"10s"`
}

// Run measures the timer service and prints the result.
func (c *benchTimersCmd) Run(ctx context.Context, e *env) error {
	cfg := bench.TimersConfig{Timers: c.Timers, Interval: c.Interval, Duration: c.Duration, Logger: e.log}
	if err := cfg.Validate(); err != nil {
		return usage(err)
	}
	r, err := bench.Timers(ctx, cfg)
	if err != nil {
		return err
	}
	return printResult(e, r, [][2]string{
		{"workload", fmt.Sprintf("%d timers every %v on the real clock, %.0f s window", r.Timers, c.Interval, r.Seconds)},
		{"timer fires/s", fmt.Sprintf("%.0f (schedule: %.0f)", r.TimerFiresPerSec, r.ExpectedFiresPerSec)},
		{"fire lateness p50", fmt.Sprintf("%.2f ms", r.FireLatenessP50Ms)},
		{"fire lateness p99", fmt.Sprintf("%.2f ms (target <= 100)", r.FireLatenessP99Ms)},
		{"fire lateness max", fmt.Sprintf("%.2f ms", r.FireLatenessMaxMs)},
		{"heap per pending timer", fmt.Sprintf("%.0f B", r.BytesPerPendingTimer)},
		{"state per timer", fmt.Sprintf("%d B (snapshot JSON)", r.StateBytesPerTimer)},
		{"CPU per fire", fmt.Sprintf("%.1f µs", r.CPUMicrosPerFire)},
	})
}
