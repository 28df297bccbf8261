package main

import (
	"os"
	"strings"
	"testing"
)

func TestBenchChildren(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "bench", "children", "--count", "6", "--parents", "2", "--dir", dir, "--json")
	if code != exitOK {
		t.Fatalf("bench children = %d, stderr %q; want 0", code, errOut)
	}
	m := decodeJSON(t, out)
	wantPositive(t, m, "children_per_sec", "child_p50_ms", "child_p99_ms", "seconds")
	if _, ok := m["child_rss_bytes"].(float64); !ok {
		t.Errorf("child_rss_bytes = %v, want a number", m["child_rss_bytes"])
	}
	for k, want := range map[string]float64{"children": 6, "parents": 2, "children_per_parent": 3, "children_archived": 6,
		"orphans": 0, "live_children": 6, "parent_turns": 8} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v", k, m[k], want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%s holds %d entries after the run without --keep, want 0", dir, len(entries))
	}
}

func TestBenchChildrenTable(t *testing.T) {
	code, out, errOut := runCLI(t, "bench", "children", "--count", "2", "--parents", "1", "--dir", t.TempDir())
	if code != exitOK {
		t.Fatalf("bench children = %d, stderr %q; want 0", code, errOut)
	}
	for _, row := range []string{"children/s", "children archived", "orphans", "RSS per live child"} {
		if !strings.Contains(out, row) {
			t.Errorf("table %q has no row %q", out, row)
		}
	}
}
