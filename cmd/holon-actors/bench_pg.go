package main

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/bench"
)

// benchPGCmd runs bench.PGJournal.
type benchPGCmd struct {
	Journal    string `help:"The PostgreSQL database to write (postgres://USER@HOST:PORT/DB): an empty one, e.g. made with createdb; the bench's streams stay in it." env:"HOLON_BENCH_JOURNAL" placeholder:"URL"`
	Streams    int    `help:"Concurrent writers, one stream each." default:"100"`
	Events     int    `help:"Events appended to each stream." default:"200"`
	Batch      int    `help:"Events per Append call." default:"1"`
	Committers int    `help:"The journal's committer goroutines, each owning a share of the streams (more than one contend for the lock PostgreSQL holds while a transaction that notifies commits)." default:"1"`
}

// Run measures the PostgreSQL journal and prints the result.
func (c *benchPGCmd) Run(ctx context.Context, e *env) error {
	cfg := bench.PGJournalConfig{URL: c.Journal, Streams: c.Streams, Events: c.Events, Batch: c.Batch, Committers: c.Committers}
	if err := cfg.Validate(); err != nil {
		return usage(err)
	}
	r, err := bench.PGJournal(ctx, cfg)
	if err != nil {
		return err
	}
	return printResult(e, r, [][2]string{
		{"workload", fmt.Sprintf("%d streams × %d events, %d per append, %d committers", r.Streams, r.Events, r.Batch, r.Committers)},
		{"total events", fmt.Sprint(r.TotalEvents)},
		{"pg durable events/s", fmt.Sprintf("%.0f (target >= 10000)", r.PGDurableEventsPerSec)},
		{"run", fmt.Sprintf("%.2f s", r.Seconds)},
		{"append p50", fmt.Sprintf("%.2f ms", r.AppendP50Ms)},
		{"append p99", fmt.Sprintf("%.2f ms", r.AppendP99Ms)},
		{"append max", fmt.Sprintf("%.2f ms", r.AppendMaxMs)},
		{"commits", fmt.Sprintf("%d (%.1f appends each)", r.Commits, r.AppendsPerCommit)},
	})
}
