package bench_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

func TestExec(t *testing.T) {
	dir := t.TempDir()
	r, err := bench.Exec(context.Background(), bench.ExecConfig{Dir: dir, Runs: 5, CaptureMB: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if r.Runs != 5 || r.InlineP50Ms <= 0 || r.BareP50Ms <= 0 || r.ExecOverheadRatio <= 0 {
		t.Errorf("overhead = %+v, want positive timings and ratio", r)
	}
	if r.CaptureBytes != 2<<20 || r.CaptureMBPerSec <= 0 {
		t.Errorf("capture = %d bytes at %v MB/s", r.CaptureBytes, r.CaptureMBPerSec)
	}
	if _, err := os.Stat(filepath.Join(dir, bench.ExecDir)); !os.IsNotExist(err) {
		t.Errorf("%s left behind: %v", bench.ExecDir, err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	_ = json.Unmarshal(b, &keys)
	for _, k := range []string{"exec_overhead_ratio", "capture_mb_per_sec"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("JSON has no %s: %s", k, b)
		}
	}
}

func TestExecConfigValidate(t *testing.T) {
	for name, cfg := range map[string]bench.ExecConfig{
		"no dir":     {Runs: 1, CaptureMB: 1},
		"no runs":    {Dir: "x", CaptureMB: 1},
		"no capture": {Dir: "x", Runs: 1},
	} {
		if err := cfg.Validate(); err == nil {
			t.Errorf("%s: Validate() = nil", name)
		}
	}
	if err := bench.DefaultExecConfig("x").Validate(); err != nil {
		t.Errorf("default: %v", err)
	}
}
