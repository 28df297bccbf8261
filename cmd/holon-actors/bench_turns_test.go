package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

// bench turns --memory keeps an index in each agent's home;
// --no-memory-index gives the homes but no index, the base the cost of
// indexing is measured against.
func TestBenchTurnsNoMemoryIndex(t *testing.T) {
	for _, tc := range []struct {
		name      string
		args      []string
		wantIndex bool
	}{
		{"memory", []string{"--memory"}, true},
		{"memory without index", []string{"--memory", "--no-memory-index"}, false},
		{"memory tools without index", []string{"--memory", "--no-memory-index", "--memory-tools"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"bench", "turns", "--agents", "2", "--turns", "1", "--dir", dir, "--keep", "--json"}, tc.args...)
			code, _, errOut := runCLI(t, args...)
			if code != exitOK {
				t.Fatalf("bench turns %q = %d, stderr %q; want 0", tc.args, code, errOut)
			}
			homes, err := filepath.Glob(filepath.Join(dir, bench.TurnsHomesDir, "agents", "*"))
			if err != nil || len(homes) != 2 {
				t.Fatalf("agent homes = %q (%v), want 2", homes, err)
			}
			for _, home := range homes {
				_, err := os.Stat(filepath.Join(home, ".holon", "indexes", "memory.sqlite3"))
				if got := err == nil; got != tc.wantIndex {
					t.Errorf("%s has an index: %v, want %v (stat: %v)", home, got, tc.wantIndex, err)
				}
			}
		})
	}
}

// --memory-tools is refused, with what to do, unless it goes with
// --memory --no-memory-index.
func TestBenchTurnsMemoryToolsRefused(t *testing.T) {
	for _, args := range [][]string{{"--memory-tools"}, {"--memory", "--memory-tools"}} {
		dir := t.TempDir()
		code, _, errOut := runCLI(t, append([]string{"bench", "turns", "--agents", "1", "--turns", "1", "--dir", dir}, args...)...)
		if code != exitUsage || !strings.Contains(errOut, "no-memory-index") {
			t.Errorf("bench turns %q = %d, stderr %q; want a usage error naming no-memory-index", args, code, errOut)
		}
	}
}
