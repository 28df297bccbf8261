package bench_test

import (
	"context"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

// TestObservability: the on runs export every span of every turn (a turn
// span, two chat spans and an execute_tool span each) to the loopback
// receiver and serve metrics; the ratio compares the runs' medians.
func TestObservability(t *testing.T) {
	cfg := bench.DefaultObservabilityConfig(t.TempDir())
	cfg.Agents, cfg.Turns, cfg.Pairs = 4, 2, 2
	r, err := bench.Observability(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if len(r.OffSeconds) != 2 || len(r.OnSeconds) != 2 || r.ObservabilityOverheadRatio <= 0 || len(r.OnCPUSeconds) != 2 || r.CPUOverheadRatio <= 0 {
		t.Fatalf("off %v, on %v, ratio %v: want two runs each and a ratio > 0", r.OffSeconds, r.OnSeconds, r.ObservabilityOverheadRatio)
	}
	if want := int64(2 * 4 * 2 * 4); r.SpansExported != want || r.ExportRequests == 0 {
		t.Errorf("spans exported %d in %d requests, want %d", r.SpansExported, r.ExportRequests, want)
	}
	if r.MetricsBytes == 0 {
		t.Error("no metrics scraped")
	}
	if err := (bench.ObservabilityConfig{Dir: t.TempDir(), Agents: 1, Turns: 1}).Validate(); err == nil {
		t.Error("Validate accepted 0 pairs")
	}
}
