package main

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/bench"
)

// benchTUICmd is `holon-actors bench tui`.
type benchTUICmd struct {
	benchFlags `embed:""`

	Events     int `help:"Events the shown agent's journal holds, written by real turns first." default:"100000"`
	Busy       int `help:"Agents kept running turns while the console is measured (the shown one among them)." default:"20"`
	Paints     int `help:"Consoles connected one after another, each timed to its first screen." default:"5"`
	Keystrokes int `help:"Keys typed into the last console, each timed to the screen that shows it." default:"200"`
}

// Run measures the console and prints the result.
func (c *benchTUICmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.TUIConfig{Dir: dir, Events: c.Events, Busy: c.Busy, Paints: c.Paints, Keystrokes: c.Keystrokes,
			Keep: c.Keep, Logger: e.log}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.TUI(ctx, cfg)
		return r, tuiRows(r), err
	})
}

func tuiRows(r bench.TUIResult) [][2]string {
	return [][2]string{
		{"workload", fmt.Sprintf("shown agent with %d events (written in %.1f s), %d agents busy", r.Events, r.FillSeconds, r.Busy)},
		{"first paint", fmt.Sprintf("p50 %.1f ms, max %.1f ms over %d connects (target %s)", r.FirstPaintP50Ms, r.FirstPaintMaxMs, r.Paints, bench.TUIFirstPaintTarget)},
		{"keystroke to repaint", fmt.Sprintf("p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d keys (target %s)", r.KeyP50Ms, r.KeyP99Ms, r.KeyMaxMs, r.Keystrokes, bench.TUIKeystrokeTarget)},
		{"busy turns meanwhile", fmt.Sprint(r.BusyTurns)},
		{"within targets", fmt.Sprint(r.WithinTargets)},
	}
}
