package main

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/bench"
)

// benchStorageCmd is `holon-actors bench storage`.
type benchStorageCmd struct {
	benchFlags `embed:""`

	Turns        int    `help:"Turns written to one agent, with retention and without." default:"100000"`
	KeepEvents   uint64 `name:"keep-events" help:"Retention window of the run with retention: the newest N events stay in the journal." default:"10000"`
	JournalBytes int64  `name:"journal-bytes" help:"Size of the journal the agent listing and runtime status are timed on." default:"1073741824"`
	Agents       int    `help:"Agents sharing that journal." default:"1000"`
}

// Run measures storage and prints the result.
func (c *benchStorageCmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.DefaultStorageConfig(dir)
		cfg.Turns, cfg.KeepEvents, cfg.JournalBytes, cfg.Agents, cfg.Keep, cfg.Logger = c.Turns, c.KeepEvents, c.JournalBytes, c.Agents, c.Keep, e.log
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.Storage(ctx, cfg)
		return r, storageRows(r), err
	})
}

func storageRows(r bench.StorageResult) [][2]string {
	return [][2]string{
		{"workload", fmt.Sprintf("%d turns on one agent, %.1f events each", r.Turns, r.EventsPerTurn)},
		{"on disk, retention on", fmt.Sprintf("%.1f MB (archive %.1f MB, %d events archived, keep the newest %d)",
			mb(r.BytesOnDisk), mb(r.ArchiveBytes), r.ArchivedEvents, r.Retention.KeepEvents)},
		{"on disk, retention off", fmt.Sprintf("%.1f MB", mb(r.BytesOnDiskRetentionOff))},
		{"retention passes", fmt.Sprintf("%.2f s in all", r.RetentionSeconds)},
		{"journal for the calls", fmt.Sprintf("%.0f MB over %d agents", mb(r.JournalBytes), r.JournalAgents)},
		{"compactions due after the fill", fmt.Sprintf("done in %.1f s (the calls are timed after)", r.CompactionSettleMs/1000)},
		{"agents list, dormant", fmt.Sprintf("first %.1f ms, then p50 %.1f ms, max %.1f ms", r.DormantFirstListMs, r.DormantListP50Ms, r.DormantListMaxMs)},
		{"runtime status, dormant", fmt.Sprintf("first %.1f ms, then p50 %.1f ms, max %.1f ms", r.DormantFirstStatusMs, r.DormantStatusP50Ms, r.DormantStatusMaxMs)},
		{"agents list, all active", fmt.Sprintf("first %.1f ms, then p50 %.1f ms, max %.1f ms", r.FirstListMs, r.ListP50Ms, r.ListMaxMs)},
		{"runtime status, all active", fmt.Sprintf("first %.1f ms, then p50 %.1f ms, max %.1f ms", r.FirstStatusMs, r.StatusP50Ms, r.StatusMaxMs)},
	}
}

func mb(b int64) float64 { return float64(b) / 1e6 }
