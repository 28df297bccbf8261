package main

import (
	"strings"
	"testing"
)

func TestBenchSSE(t *testing.T) {
	code, out, errOut := runCLI(t, "bench", "sse", "--subscribers", "3", "--events", "1", "--event-bytes", "65536", "--dir", t.TempDir(), "--json")
	if code != exitOK {
		t.Fatalf("bench sse = %d, stderr %q; want 0", code, errOut)
	}
	m := decodeJSON(t, out)
	wantPositive(t, m, "mb_per_sec", "frame_bytes", "rss_peak_bytes", "heap_peak_bytes")
	if m["subscribers"] != 3.0 || m["refused_status"] != 429.0 {
		t.Errorf("subscribers = %v, refused_status = %v; want 3 and 429", m["subscribers"], m["refused_status"])
	}
	if code, _, errOut := runCLI(t, "bench", "sse", "--subscribers", "0"); code != exitUsage || !strings.Contains(errOut, "subscribers") {
		t.Errorf("bench sse --subscribers 0 = %d, stderr %q; want a usage error", code, errOut)
	}
}
