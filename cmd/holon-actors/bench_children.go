package main

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/bench"
)

// benchChildrenCmd is `holon-actors bench children`.
type benchChildrenCmd struct {
	benchFlags `embed:""`

	Count   int `help:"Private children spawned in all." default:"1000"`
	Parents int `help:"Parent agents the children are spread over; each spawns its share (at most 64) in one model round." default:"100"`
}

// Run measures delegation and prints the result.
func (c *benchChildrenCmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.ChildrenConfig{Dir: dir, Count: c.Count, Parents: c.Parents, Keep: c.Keep, Logger: e.log}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.Children(ctx, cfg)
		return r, childrenRows(r), err
	})
}

func childrenRows(r bench.ChildrenResult) [][2]string {
	return [][2]string{
		{"workload", fmt.Sprintf("%d private children over %d parents (up to %d each): spawn, one child round, archive, rejoin; durable journal", r.Children, r.Parents, r.ChildrenPerParent)},
		{"children/s", fmt.Sprintf("%.0f", r.ChildrenPerSec)},
		{"run", fmt.Sprintf("%.2f s", r.Seconds)},
		{"child p50", fmt.Sprintf("%.2f ms (task_started to task_finished)", r.ChildP50Ms)},
		{"child p99", fmt.Sprintf("%.2f ms", r.ChildP99Ms)},
		{"child max", fmt.Sprintf("%.2f ms", r.ChildMaxMs)},
		{"parent turns", fmt.Sprint(r.ParentTurns)},
		{"children archived", fmt.Sprint(r.ChildrenArchived)},
		{"orphans", fmt.Sprint(r.Orphans)},
		{"RSS per live child", fmt.Sprintf("%.0f B (%d children asleep under their parents)", r.ChildRSSBytes, r.LiveChildren)},
		{"heap per live child", fmt.Sprintf("%.0f B", r.ChildHeapBytes)},
	}
}
