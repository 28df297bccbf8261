package bench

import (
	"context"
	"fmt"
)

// TurnOverhead is what memory maintenance adds to a turn, as ratios of
// the process's CPU time per turn of agents whose memory is indexed to
// that of agents with homes but no index (homes cost the tools and the
// instruction files something of their own, which is not memory's). CPU rather than wall time because on a shared machine the
// wall time of either run is mostly others' load.
type TurnOverhead struct {
	// Ratio counts the CPU of the turns themselves: what the runtime pays
	// while it runs them (handing records over, and the indexing done
	// meanwhile).
	Ratio float64
	// WithIndexingRatio also counts indexing what the run left pending
	// (TurnsResult.MemoryFlushCPUSeconds), which a runtime does once it is
	// quiet: all the CPU memory costs.
	WithIndexingRatio float64
}

// MemoryTurnOverhead is a MemoryConfig.TurnOverhead: it runs Turns of cfg
// with agent homes, without and with a memory index, alternating, pairs
// times, and sums each side's CPU time per turn over the pairs.
func MemoryTurnOverhead(cfg TurnsConfig, pairs int) func(context.Context) (TurnOverhead, error) {
	return func(ctx context.Context) (TurnOverhead, error) {
		if pairs < 1 {
			return TurnOverhead{}, fmt.Errorf("turn overhead: %d pairs of runs, want at least 1", pairs)
		}
		var without, with, flush float64
		for range pairs {
			for _, memory := range []bool{false, true} {
				c := cfg
				c.Memory, c.NoMemoryIndex = true, !memory
				r, err := Turns(ctx, c)
				if err != nil {
					return TurnOverhead{}, fmt.Errorf("turns (memory %v): %w", memory, err)
				}
				if r.CPUSeconds <= 0 {
					return TurnOverhead{}, fmt.Errorf("turns (memory %v): no CPU time measured (is /proc readable?)", memory)
				}
				turns := float64(r.TotalTurns)
				if memory {
					with, flush = with+r.CPUSeconds/turns, flush+r.MemoryFlushCPUSeconds/turns
				} else {
					without += r.CPUSeconds / turns
				}
			}
		}
		return TurnOverhead{Ratio: with / without, WithIndexingRatio: (with + flush) / without}, nil
	}
}
