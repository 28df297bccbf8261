package main

import (
	"encoding/json"
	"errors"
	"math"
	"os/exec"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

// TestBenchRemote runs `bench remote --json` small: it starts its node
// (this binary, without -race: see plainBinary), admits every prompt over
// both surfaces and checks each is journaled once before it reports.
func TestBenchRemote(t *testing.T) {
	bin, err := plainBinary()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--json", "bench", "remote", "--clients", "10", "--requests", "1000", "--dir", t.TempDir()).Output()
	if err != nil {
		var stderr []byte
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			stderr = ee.Stderr
		}
		t.Fatalf("bench remote = %v\n%s\n%s", err, out, stderr)
	}
	var r bench.RemoteResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("bench remote printed %q: %v", out, err)
	}
	if r.Clients != 10 || r.Requests != 1000 || r.Agents != 10 {
		t.Fatalf("workload = %+v, want 10 clients, 1000 prompts, 10 agents", r)
	}
	for name, v := range map[string]float64{"remote_prompts_per_sec": r.RemotePromptsPerSec, "remote_admit_p50_ms": r.RemoteAdmitP50Ms,
		"remote_admit_p99_ms": r.RemoteAdmitP99Ms, "http_prompts_per_sec": r.HTTPPromptsPerSec, "http_admit_p50_ms": r.HTTPAdmitP50Ms,
		"remote_node_cpu_us_per_prompt": r.RemoteNodeCPUUsPerPrompt, "http_node_cpu_us_per_prompt": r.HTTPNodeCPUUsPerPrompt} {
		if !(v > 0) {
			t.Errorf("%s = %v, want > 0", name, v)
		}
	}
	if want := r.RemoteAdmitP50Ms / r.HTTPAdmitP50Ms; math.Abs(r.RemoteOverHTTPRatio-want) > 1e-9 {
		t.Errorf("remote_over_http_ratio = %v, want %v", r.RemoteOverHTTPRatio, want)
	}
}
