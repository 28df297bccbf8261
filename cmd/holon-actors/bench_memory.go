package main

import (
	"context"
	"fmt"
	"os"

	"github.com/holon-actors/holon-actors/bench"
)

// benchMemoryCmd is `holon-actors bench memory`.
type benchMemoryCmd struct {
	benchFlags `embed:""`

	Records  int `help:"Records in the agent's memory index, written by one full rebuild." default:"100000"`
	Searches int `help:"Timed searches after the rebuild (one to three English, Chinese or mixed words)." default:"2000"`

	OverheadRounds    int  `name:"overhead-rounds" aliases:"overhead-pairs" help:"Rounds of bench turns runs for the turn overhead ratio, each running four sides (no homes; homes; homes with the memory tools offered but no index; memory indexed), each in a process of its own, two at a time (the memory ones together, then the others); the ratio is indexed over tools-without-index, everything else equal, the median of the rounds'. 0 skips it." default:"5"`
	OverheadInProcess bool `name:"overhead-in-process" help:"Run the turn overhead's sides one after another in this process (forwards and backwards alternately) instead: on a shared machine its ratio moves with the others' load."`
	OverheadAgents    int  `help:"Agents of each bench turns run of the turn overhead ratio." default:"100"`
	OverheadTurns     int  `help:"Turns per agent of each bench turns run of the turn overhead ratio." default:"40"`
}

// Run measures the memory index and prints the result.
func (c *benchMemoryCmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.MemoryConfig{Dir: dir, Records: c.Records, Searches: c.Searches}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		if c.OverheadRounds < 0 {
			return nil, nil, usage(fmt.Errorf("--overhead-rounds is %d, want 0 (skip) or more", c.OverheadRounds))
		}
		if c.OverheadRounds > 0 {
			turns := bench.TurnsConfig{Dir: dir, Agents: c.OverheadAgents, Turns: c.OverheadTurns, Logger: e.log}
			if err := turns.Validate(); err != nil {
				return nil, nil, usage(fmt.Errorf("turn overhead: %w", err))
			}
			var parallel bench.TurnsRunner
			if !c.OverheadInProcess {
				exe, err := os.Executable()
				if err != nil {
					return nil, nil, fmt.Errorf("turn overhead: this program's path, to run its sides: %w (or use --overhead-in-process)", err)
				}
				parallel = bench.ProcessTurns(exe)
			}
			cfg.TurnOverhead = bench.MemoryTurnOverhead(turns, c.OverheadRounds, parallel)
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
		if o := r.MemoryTurnOverhead; o != nil {
			rows = append(rows,
				[2]string{"turn overhead ratio", fmt.Sprintf("%.3f CPU a turn with the index kept over without, all else equal (target <= 1.05); rounds %.3f–%.3f of %d",
					o.Ratio, o.RatioMin, o.RatioMax, o.Rounds)},
				[2]string{"with indexing left pending", fmt.Sprintf("%.3f", o.WithIndexingRatio)},
				[2]string{"homes over no homes", fmt.Sprintf("%.3f", o.HomesRatio)},
				[2]string{"memory tools offered over homes", fmt.Sprintf("%.3f", o.ToolsRatio)},
				[2]string{"CPU a turn", fmt.Sprintf("no homes %.0f µs, homes %.0f µs, memory tools %.0f µs, memory %.0f µs",
					o.NoHomesCPUMicros, o.HomesCPUMicros, o.MemoryToolsCPUMicros, o.MemoryCPUMicros)})
		}
		return r, rows, err
	})
}
