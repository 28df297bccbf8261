package main

import "testing"

func TestBenchExec(t *testing.T) {
	code, out, errOut := runCLI(t, "bench", "exec", "--runs", "3", "--capture-mb", "1", "--dir", t.TempDir(), "--json")
	if code != exitOK {
		t.Fatalf("bench exec = %d, stderr %q; want 0", code, errOut)
	}
	m := decodeJSON(t, out)
	wantPositive(t, m, "exec_overhead_ratio", "capture_mb_per_sec", "inline_p50_ms", "bare_p50_ms")
	if m["runs"] != 3.0 || m["capture_bytes"] != float64(1<<20) {
		t.Errorf("runs = %v, capture_bytes = %v; want 3 and 1 MiB", m["runs"], m["capture_bytes"])
	}
	if code, _, errOut := runCLI(t, "bench", "exec", "--runs", "0"); code != exitUsage {
		t.Errorf("bench exec --runs 0 = %d, stderr %q; want a usage error", code, errOut)
	}
}
