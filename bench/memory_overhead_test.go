package bench

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// Agents with homes get memory indexes unless NoMemoryIndex, and the
// overhead measure runs both and gives ratios of their CPU per turn.
func TestMemoryTurnOverhead(t *testing.T) {
	for _, tc := range []struct {
		name         string
		noIndex      bool
		toolsNoIndex bool
	}{{"indexed", false, false}, {"homes only", true, false}, {"memory tools without index", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			r, err := Turns(context.Background(), TurnsConfig{Dir: dir, Agents: 2, Turns: 2, Memory: true, NoMemoryIndex: tc.noIndex,
				MemoryToolsWithoutIndex: tc.toolsNoIndex, Keep: true})
			if err != nil {
				t.Fatal(err)
			}
			indexes, _ := filepath.Glob(filepath.Join(dir, TurnsHomesDir, "*", "*", ".holon", "indexes", "memory.sqlite3"))
			indexes2, _ := filepath.Glob(filepath.Join(dir, TurnsHomesDir, "*", ".holon", "indexes", "memory.sqlite3"))
			indexes = append(indexes, indexes2...)
			if got := len(indexes) > 0; got == tc.noIndex {
				t.Errorf("memory indexes written = %v (%v), want %v", got, indexes, !tc.noIndex)
			}
			if !tc.noIndex && r.MemoryFlushSeconds <= 0 {
				t.Errorf("memory_flush_seconds = %v, want the indexing left pending timed", r.MemoryFlushSeconds)
			}
		})
	}
	o, err := MemoryTurnOverhead(TurnsConfig{Dir: t.TempDir(), Agents: 2, Turns: 2}, 1, nil)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if o.Ratio <= 0 || o.WithIndexingRatio < o.Ratio || o.Rounds != 1 || o.RatioMin != o.Ratio || o.RatioMax != o.Ratio ||
		o.HomesRatio <= 0 || o.ToolsRatio <= 0 || o.NoHomesCPUMicros <= 0 || o.HomesCPUMicros <= 0 ||
		o.MemoryToolsCPUMicros <= 0 || o.MemoryCPUMicros <= 0 {
		t.Errorf("overhead %+v, want positive ratios and costs, the one with indexing no smaller, one round", o)
	}
	if _, err := MemoryTurnOverhead(TurnsConfig{Dir: t.TempDir(), Agents: 2, Turns: 2}, 0, nil)(context.Background()); err == nil {
		t.Error("0 pairs accepted")
	}
}

// Memory-tools-without-index only applies to homes without an index.
func TestTurnsMemoryToolsNeedNoIndex(t *testing.T) {
	for _, bad := range []TurnsConfig{
		{Dir: "x", Agents: 1, Turns: 1, MemoryToolsWithoutIndex: true},
		{Dir: "x", Agents: 1, Turns: 1, Memory: true, MemoryToolsWithoutIndex: true},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("Validate(%+v) accepted it", bad)
		}
	}
}

// Each round runs the four sides, forwards then backwards, so the two
// sides of the memory ratio are always neighbours; the ratios are the
// medians of the rounds' ratios, memory over tools-without-index.
func TestTurnOverheadSides(t *testing.T) {
	if got, want := overheadOrder(0), []overheadSide{sideNoHomes, sideHomes, sideMemoryTools, sideMemory}; !slices.Equal(got, want) {
		t.Errorf("round 0 order %v, want %v", got, want)
	}
	if got, want := overheadOrder(1), []overheadSide{sideMemory, sideMemoryTools, sideHomes, sideNoHomes}; !slices.Equal(got, want) {
		t.Errorf("round 1 order %v, want %v", got, want)
	}
	for _, tc := range []struct {
		side                          overheadSide
		memory, noIndex, toolsNoIndex bool
	}{
		{sideNoHomes, false, false, false},
		{sideHomes, true, true, false},
		{sideMemoryTools, true, true, true},
		{sideMemory, true, false, false},
	} {
		c := tc.side.apply(TurnsConfig{Dir: "x", Agents: 1, Turns: 1})
		if c.Memory != tc.memory || c.NoMemoryIndex != tc.noIndex || c.MemoryToolsWithoutIndex != tc.toolsNoIndex {
			t.Errorf("%s: %+v", tc.side, c)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", tc.side, err)
		}
	}
	// Three rounds: CPU seconds a turn by side.
	var per [overheadSides][]float64
	per[sideNoHomes] = []float64{1.0, 1.0, 2.0}
	per[sideHomes] = []float64{1.1, 1.0, 2.0}
	per[sideMemoryTools] = []float64{2.0, 1.0, 4.0}
	per[sideMemory] = []float64{2.2, 1.0, 4.4} // ratios 1.1, 1.0, 1.1
	o := turnOverhead(per, []float64{0.2, 0.1, 0.4})
	near := func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"ratio", o.Ratio, 1.1}, {"min", o.RatioMin, 1.0}, {"max", o.RatioMax, 1.1},
		{"with indexing", o.WithIndexingRatio, 1.2}, // 1.2, 1.1, 1.2
		{"homes", o.HomesRatio, 1.0},                // 1.1, 1.0, 1.0
		{"tools", o.ToolsRatio, 2.0 / 1.1},          // 1.82, 1.0, 2.0
		{"no homes µs", o.NoHomesCPUMicros, 1e6}, {"memory µs", o.MemoryCPUMicros, 2.2e6},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if o.Rounds != 3 {
		t.Errorf("rounds = %d, want 3", o.Rounds)
	}
}

// With a parallel runner each round runs its sides as two pairs at once,
// the two of the memory ratio together, each side in its own directory,
// and the ratios come from the pairs' results.
func TestTurnOverheadParallel(t *testing.T) {
	cpu := map[overheadSide]float64{sideNoHomes: 1.0, sideHomes: 1.1, sideMemoryTools: 1.2, sideMemory: 1.26}
	sideOf := func(c TurnsConfig) overheadSide {
		for s := range overheadSides {
			if s.apply(c) == c {
				return s
			}
		}
		t.Fatalf("config %+v is no side", c)
		return 0
	}
	var mu sync.Mutex
	waiting := map[overheadSide]chan string{} // a side's partner, told the directory it ran in
	partner := map[overheadSide]overheadSide{sideMemory: sideMemoryTools, sideMemoryTools: sideMemory, sideHomes: sideNoHomes, sideNoHomes: sideHomes}
	runner := func(ctx context.Context, c TurnsConfig) (TurnsResult, error) {
		side := sideOf(c)
		mu.Lock()
		ch, ok := waiting[partner[side]]
		if ok {
			delete(waiting, partner[side])
		} else {
			ch = make(chan string, 1)
			waiting[side] = ch
		}
		mu.Unlock()
		if ok {
			ch <- c.Dir
		} else {
			select {
			case dir := <-ch:
				if dir == c.Dir {
					return TurnsResult{}, fmt.Errorf("%s ran in its partner's directory %s", side, dir)
				}
			case <-time.After(10 * time.Second):
				return TurnsResult{}, fmt.Errorf("%s ran without its partner", side)
			}
		}
		return TurnsResult{TotalTurns: 10, CPUSeconds: 10 * cpu[side]}, nil
	}
	o, err := MemoryTurnOverhead(TurnsConfig{Dir: t.TempDir(), Agents: 1, Turns: 10}, 2, runner)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if o.Rounds != 2 || math.Abs(o.Ratio-1.05) > 1e-9 || math.Abs(o.HomesRatio-1.1) > 1e-9 || math.Abs(o.ToolsRatio-1.2/1.1) > 1e-9 {
		t.Errorf("overhead %+v, want 2 rounds, ratio 1.05, homes 1.1, tools 1.2/1.1", o)
	}
	if got, want := overheadPairs(1), [][2]overheadSide{{sideNoHomes, sideHomes}, {sideMemoryTools, sideMemory}}; !slices.Equal(got, want) {
		t.Errorf("round 1 pairs %v, want %v", got, want)
	}
}
