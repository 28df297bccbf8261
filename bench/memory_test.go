package bench

import (
	"context"
	"testing"
)

// TestMemory runs a small memory workload: the rebuild and the searches are timed, most searches
// find something, and the turn-overhead figure is present only when measured.
func TestMemory(t *testing.T) {
	cfg := MemoryConfig{Dir: t.TempDir(), Records: 3000, Searches: 200}
	r, err := Memory(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.MemoryIndexRecordsPerSec <= 0 || r.MemoryIndexBytesPerRecord <= 0 || r.MemorySearchP50Ms <= 0 ||
		r.MemorySearchP99Ms < r.MemorySearchP50Ms || r.MemorySearchMaxMs < r.MemorySearchP99Ms {
		t.Errorf("result %+v", r)
	}
	if r.SearchesWithHits < cfg.Searches/2 {
		t.Errorf("searches with hits = %d of %d, want most", r.SearchesWithHits, cfg.Searches)
	}
	if r.MemoryTurnOverheadRatio != nil {
		t.Errorf("memory_turn_overhead_ratio = %v without a measurement, want absent", *r.MemoryTurnOverheadRatio)
	}

	cfg.Dir = t.TempDir()
	cfg.TurnOverhead = func(context.Context) (TurnOverhead, error) {
		return TurnOverhead{Ratio: 1.03, WithIndexingRatio: 1.2}, nil
	}
	r, err = Memory(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.MemoryTurnOverheadRatio == nil || *r.MemoryTurnOverheadRatio != 1.03 {
		t.Errorf("memory_turn_overhead_ratio = %v, want the hook's 1.03", r.MemoryTurnOverheadRatio)
	}
	if r.MemoryTurnOverheadWithIndexingRatio == nil || *r.MemoryTurnOverheadWithIndexingRatio != 1.2 {
		t.Errorf("memory_turn_overhead_with_indexing_ratio = %v, want the hook's 1.2", r.MemoryTurnOverheadWithIndexingRatio)
	}
	for _, bad := range []MemoryConfig{{Records: 1, Searches: 1}, {Dir: "x", Searches: 1}, {Dir: "x", Records: 1}} {
		if err := bad.Validate(); err == nil {
			t.Errorf("Validate(%+v) accepted it", bad)
		}
	}
}
