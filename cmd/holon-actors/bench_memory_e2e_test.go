package main

import (
	"encoding/json"
	"os/exec"
	"testing"
)

// bench memory runs the turn overhead's sides as processes of the built
// binary, two at a time, and reports every side's CPU a turn and the
// ratios' spread.
func TestBenchMemoryOverheadProcesses(t *testing.T) {
	out, err := exec.Command(binary, "--json", "bench", "memory", "--dir", t.TempDir(), "--records", "50", "--searches", "2",
		"--overhead-rounds", "1", "--overhead-agents", "2", "--overhead-turns", "5").Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("bench memory: %v: %s", err, stderr)
	}
	var r struct {
		Ratio *float64           `json:"memory_turn_overhead_ratio"`
		O     map[string]float64 `json:"memory_turn_overhead"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Ratio == nil || *r.Ratio <= 0 || r.O["rounds"] != 1 || r.O["ratio"] != *r.Ratio {
		t.Fatalf("overhead %s, want one round and the ratio", out)
	}
	for _, k := range []string{"no_homes_cpu_us_per_turn", "homes_cpu_us_per_turn", "memory_tools_cpu_us_per_turn", "memory_cpu_us_per_turn", "homes_ratio", "tools_ratio"} {
		if r.O[k] <= 0 {
			t.Errorf("%s = %v, want a measurement: %s", k, r.O[k], out)
		}
	}
}
