package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

// TestMemorySearchAndGet: after a turn, memory search finds its brief
// with provenance and a source_ref, memory get prints its exact text, a
// forged ref and an out-of-range --max-chars are refused with what to do,
// and status shows the working-memory revision.
func TestMemorySearchAndGet(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [{"text": "The Lisbon deploy finished: release 7 is live."}], "then": "echo"}`)
	startRun(t, home, "--model", "scripted", "--script", script)
	if code, out, errOut := client(t, home, "prompt", "--wait", "Deploy to Lisbon."); code != 0 {
		t.Fatalf("prompt --wait = %d %q %q", code, out, errOut)
	}

	code, out, errOut := client(t, home, "memory", "search", "lisbon", "deploy")
	if code != 0 || !strings.Contains(out, `1 hit(s) in main's memory for "lisbon deploy"`) || !strings.Contains(out, "1. [brief] result brief") ||
		!strings.Contains(out, "workspace agent_home, agent main") || !strings.Contains(out, "source_ref: ") {
		t.Fatalf("memory search = %d %q %q", code, out, errOut)
	}
	code, out, errOut = client(t, home, "--json", "memory", "search", "lisbon")
	var res control.MemorySearchResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Hits) != 1 || res.Hits[0].SourceRef == "" {
		t.Fatalf("memory search --json = %d %q %q", code, out, errOut)
	}
	code, out, errOut = client(t, home, "memory", "get", res.Hits[0].SourceRef)
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(out), "\nThe Lisbon deploy finished: release 7 is live.") || !strings.Contains(out, "truncated  false") {
		t.Fatalf("memory get = %d %q %q", code, out, errOut)
	}
	code, out, _ = client(t, home, "memory", "get", "--max-chars", "10", res.Hits[0].SourceRef)
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(out), "\nThe Lisbon") || !strings.Contains(out, "truncated  true") {
		t.Fatalf("memory get --max-chars 10 = %d %q", code, out)
	}
	if code, _, errOut = client(t, home, "memory", "get", res.Hits[0].SourceRef+"x"); code != exitFailure || !strings.Contains(errOut, "source_ref") {
		t.Fatalf("memory get of an altered ref = %d %q", code, errOut)
	}
	if code, _, errOut = client(t, home, "memory", "get", "--max-chars", "50001", res.Hits[0].SourceRef); code == 0 || !strings.Contains(errOut, "1..50000") {
		t.Fatalf("memory get --max-chars 50001 = %d %q", code, errOut)
	}
	if code, out, _ = client(t, home, "status"); code != 0 || !strings.Contains(out, "working memory revision 1, 0 episodes") {
		t.Fatalf("status = %d %q", code, out)
	}
}
