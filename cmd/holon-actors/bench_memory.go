package main

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/bench"
)

// benchMemoryCmd is `holon-actors bench memory`.
type benchMemoryCmd struct {
	benchFlags `embed:""`

	Records  int `help:"Records in the agent's memory index, written by one full rebuild." default:"100000"`
	Searches int `help:"Timed searches after the rebuild (one to three English, Chinese or mixed words)." default:"2000"`

	OverheadPairs  int `help:"Pairs of bench turns runs, without and with agent homes (so memory is indexed), alternating, for the turn overhead ratio; 0 skips it." default:"3"`
	OverheadAgents int `help:"Agents of each bench turns run of the turn overhead ratio." default:"100"`
	OverheadTurns  int `help:"Turns per agent of each bench turns run of the turn overhead ratio." default:"40"`
}

// Run measures the memory index and prints the result.
func (c *benchMemoryCmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.MemoryConfig{Dir: dir, Records: c.Records, Searches: c.Searches}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		if c.OverheadPairs < 0 {
			return nil, nil, usage(fmt.Errorf("--overhead-pairs is %d, want 0 (skip) or more", c.OverheadPairs))
		}
		if c.OverheadPairs > 0 {
			turns := bench.TurnsConfig{Dir: dir, Agents: c.OverheadAgents, Turns: c.OverheadTurns, Logger: e.log}
			if err := turns.Validate(); err != nil {
				return nil, nil, usage(fmt.Errorf("turn overhead: %w", err))
			}
			cfg.TurnOverhead = bench.MemoryTurnOverhead(turns, c.OverheadPairs)
		}
		r, err := bench.Memory(ctx, cfg)
		rows := [][2]string{
			{"workload", fmt.Sprintf("%d records, %d searches", r.Records, r.Searches)},
			{"rebuild", fmt.Sprintf("%.0f records/s (%.2f s; target >= 20000/s)", r.MemoryIndexRecordsPerSec, r.RebuildSeconds)},
			{"index size", fmt.Sprintf("%.0f B per record", r.MemoryIndexBytesPerRecord)},
			{"search p50", fmt.Sprintf("%.2f ms", r.MemorySearchP50Ms)},
			{"search p99", fmt.Sprintf("%.2f ms (target <= 10)", r.MemorySearchP99Ms)},
			{"search max", fmt.Sprintf("%.2f ms", r.MemorySearchMaxMs)},
			{"search CPU mean", fmt.Sprintf("%.2f ms", r.MemorySearchCPUMsMean)},
			{"rebuild per CPU second", fmt.Sprintf("%.0f records", r.MemoryIndexRecordsPerCPUSec)},
			{"searches with hits", fmt.Sprint(r.SearchesWithHits)},
		}
		if r.MemoryTurnOverheadRatio != nil {
			rows = append(rows,
				[2]string{"turn overhead ratio", fmt.Sprintf("%.3f CPU a turn with memory over without (target <= 1.05)", *r.MemoryTurnOverheadRatio)},
				[2]string{"with indexing left pending", fmt.Sprintf("%.3f", *r.MemoryTurnOverheadWithIndexingRatio)})
		}
		return r, rows, err
	})
}
