package bench

import (
	"context"
	"path/filepath"
	"testing"
)

// Agents with homes get memory indexes unless NoMemoryIndex, and the
// overhead measure runs both and gives ratios of their CPU per turn.
func TestMemoryTurnOverhead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		noIndex bool
	}{{"indexed", false}, {"homes only", true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			r, err := Turns(context.Background(), TurnsConfig{Dir: dir, Agents: 2, Turns: 2, Memory: true, NoMemoryIndex: tc.noIndex, Keep: true})
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
	o, err := MemoryTurnOverhead(TurnsConfig{Dir: t.TempDir(), Agents: 2, Turns: 2}, 1)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if o.Ratio <= 0 || o.WithIndexingRatio < o.Ratio {
		t.Errorf("overhead %+v, want positive ratios, the one with indexing no smaller", o)
	}
	if _, err := MemoryTurnOverhead(TurnsConfig{Dir: t.TempDir(), Agents: 2, Turns: 2}, 0)(context.Background()); err == nil {
		t.Error("0 pairs accepted")
	}
}
