package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
)

// TurnOverhead is what memory maintenance adds to a turn: the process's
// CPU time per turn (user and system; on a shared machine the wall time
// of either run is mostly others' load) of agents whose memory is indexed
// over that of agents with everything else the same — homes, the memory
// tools offered and named in the prompt — but no index. Beside it, what
// the other parts cost: homes without the memory tools against no homes,
// and offering the tools against homes without them.
//
// Each round runs the four sides once, the two sides of each ratio side
// by side (MemoryTurnOverhead); every ratio is the median of its rounds'
// ratios, and RatioMin and RatioMax are the spread of the memory one.
type TurnOverhead struct {
	// Rounds is how many times each side ran.
	Rounds int `json:"rounds"`
	// Ratio counts the CPU of the turns themselves: what the runtime pays
	// while it runs them (handing records over, and the indexing done
	// meanwhile). RatioMin and RatioMax are the lowest and highest of the
	// rounds' ratios.
	Ratio    float64 `json:"ratio"`
	RatioMin float64 `json:"ratio_min"`
	RatioMax float64 `json:"ratio_max"`
	// WithIndexingRatio also counts indexing what the run left pending
	// (TurnsResult.MemoryFlushCPUSeconds), which a runtime does once it is
	// quiet: all the CPU memory maintenance costs.
	WithIndexingRatio float64 `json:"with_indexing_ratio"`
	// HomesRatio is homes without the memory tools over no homes (the
	// instruction files and workspaces an agent home brings); ToolsRatio
	// offering the memory tools, and naming them in the prompt, over homes
	// without them (every model request is larger).
	HomesRatio float64 `json:"homes_ratio"`
	ToolsRatio float64 `json:"tools_ratio"`
	// The median CPU microseconds of a turn on each side.
	NoHomesCPUMicros     float64 `json:"no_homes_cpu_us_per_turn"`
	HomesCPUMicros       float64 `json:"homes_cpu_us_per_turn"`
	MemoryToolsCPUMicros float64 `json:"memory_tools_cpu_us_per_turn"`
	MemoryCPUMicros      float64 `json:"memory_cpu_us_per_turn"`
}

// overheadSide is one configuration of TurnOverhead's runs.
type overheadSide int

const (
	sideNoHomes overheadSide = iota
	sideHomes
	sideMemoryTools
	sideMemory
	overheadSides
)

func (s overheadSide) String() string {
	return [...]string{"no homes", "homes", "memory tools without index", "memory"}[s]
}

// apply sets cfg up for side s.
func (s overheadSide) apply(cfg TurnsConfig) TurnsConfig {
	cfg.Memory = s != sideNoHomes
	cfg.NoMemoryIndex = s == sideHomes || s == sideMemoryTools
	cfg.MemoryToolsWithoutIndex = s == sideMemoryTools
	return cfg
}

// overheadOrder is the order of round i's sides: forwards in even
// rounds, backwards in odd ones.
func overheadOrder(i int) []overheadSide {
	o := []overheadSide{sideNoHomes, sideHomes, sideMemoryTools, sideMemory}
	if i%2 == 1 {
		slices.Reverse(o)
	}
	return o
}

// overheadPairs are round i's sides as two pairs run at once: the two of
// the memory ratio, and no homes beside homes; in turn first and second.
func overheadPairs(i int) [][2]overheadSide {
	p := [][2]overheadSide{{sideMemoryTools, sideMemory}, {sideNoHomes, sideHomes}}
	if i%2 == 1 {
		slices.Reverse(p)
	}
	return p
}

// MemoryTurnOverhead is a MemoryConfig.TurnOverhead: it runs Turns of cfg
// rounds times on each of TurnOverhead's four sides and compares their CPU
// time per turn. With parallel nil the sides run one after another in
// this process (overheadOrder); with it, each pair of overheadPairs runs
// at once through parallel (ProcessTurns: each side in a process of its
// own, so each is measured apart while both see the same load), which
// takes out most of what a shared machine's other work does to the
// ratios (the other sides' ratio, tools over homes, compares pairs run one
// after the other).
func MemoryTurnOverhead(cfg TurnsConfig, rounds int, parallel TurnsRunner) func(context.Context) (TurnOverhead, error) {
	return func(ctx context.Context) (TurnOverhead, error) {
		if rounds < 1 {
			return TurnOverhead{}, fmt.Errorf("turn overhead: %d rounds of runs, want at least 1", rounds)
		}
		var perTurn [overheadSides][]float64 // CPU seconds a turn, by side, by round
		var flush []float64                  // the memory side's indexing left pending, a turn
		record := func(side overheadSide, r TurnsResult, err error) error {
			if err != nil {
				return fmt.Errorf("turns (%s): %w", side, err)
			}
			if r.CPUSeconds <= 0 {
				return fmt.Errorf("turns (%s): no CPU time measured (is /proc readable?)", side)
			}
			turns := float64(r.TotalTurns)
			perTurn[side] = append(perTurn[side], r.CPUSeconds/turns)
			if side == sideMemory {
				flush = append(flush, r.MemoryFlushCPUSeconds/turns)
			}
			return nil
		}
		for i := range rounds {
			if parallel == nil {
				for _, side := range overheadOrder(i) {
					r, err := Turns(ctx, side.apply(cfg))
					if err := record(side, r, err); err != nil {
						return TurnOverhead{}, err
					}
				}
				continue
			}
			for _, pair := range overheadPairs(i) {
				var res [2]TurnsResult
				var errs [2]error
				var wg sync.WaitGroup
				for j, side := range pair {
					c := side.apply(cfg)
					c.Dir = filepath.Join(cfg.Dir, fmt.Sprintf("side-%d", j)) // each its own store and homes
					wg.Go(func() { res[j], errs[j] = parallel(ctx, c) })
				}
				wg.Wait()
				for j, side := range pair {
					if err := record(side, res[j], errs[j]); err != nil {
						return TurnOverhead{}, err
					}
				}
			}
		}
		return turnOverhead(perTurn, flush), nil
	}
}

// turnOverhead is TurnOverhead of the CPU seconds a turn each round took
// on each side and the memory side's pending indexing.
func turnOverhead(perTurn [overheadSides][]float64, flush []float64) TurnOverhead {
	ratios := func(num, den overheadSide, extra []float64) []float64 {
		out := make([]float64, len(perTurn[num]))
		for i := range out {
			n := perTurn[num][i]
			if extra != nil {
				n += extra[i]
			}
			out[i] = n / perTurn[den][i]
		}
		return out
	}
	mem := ratios(sideMemory, sideMemoryTools, nil)
	us := func(s overheadSide) float64 { return median(perTurn[s]) * 1e6 }
	return TurnOverhead{Rounds: len(mem), Ratio: median(mem), RatioMin: slices.Min(mem), RatioMax: slices.Max(mem),
		WithIndexingRatio: median(ratios(sideMemory, sideMemoryTools, flush)),
		HomesRatio:        median(ratios(sideHomes, sideNoHomes, nil)),
		ToolsRatio:        median(ratios(sideMemoryTools, sideHomes, nil)),
		NoHomesCPUMicros:  us(sideNoHomes), HomesCPUMicros: us(sideHomes),
		MemoryToolsCPUMicros: us(sideMemoryTools), MemoryCPUMicros: us(sideMemory)}
}
