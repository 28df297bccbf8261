package bench_test

import (
	"context"
	"os"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

func TestSSE(t *testing.T) {
	cfg := bench.DefaultSSEConfig(t.TempDir())
	cfg.Subscribers, cfg.Events, cfg.EventBytes = 4, 2, 64<<10
	r, err := bench.SSE(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Refused != 429 || r.Subscribers != 4 || r.Events != 2 {
		t.Fatalf("SSE = %+v: want the fifth stream refused with 429", r)
	}
	// The receipt is in the payload and in the presentation body.
	if r.FrameBytes < 2*cfg.EventBytes || r.FrameBytes > 3*cfg.EventBytes || r.MBPerSec <= 0 || r.Seconds <= 0 {
		t.Fatalf("SSE = %+v: want each event served whole to every subscriber", r)
	}
	if r.ReplaySeconds <= 0 || r.RSSBaselineBytes <= 0 || r.RSSPeakBytes <= 0 || r.RSSAfterBytes <= 0 || r.AnonPeakBytes <= 0 || r.HeapPeakBytes == 0 {
		t.Fatalf("SSE = %+v: want memory readings", r)
	}
	if entries, _ := os.ReadDir(cfg.Dir); len(entries) != 0 {
		t.Errorf("%s holds %d entries after the run without Keep, want 0", cfg.Dir, len(entries))
	}
}

func TestSSEConfigValidate(t *testing.T) {
	for name, c := range map[string]bench.SSEConfig{
		"no dir":         {Subscribers: 1, Events: 1, EventBytes: 1},
		"no subscribers": {Dir: "d", Events: 1, EventBytes: 1},
		"no events":      {Dir: "d", Subscribers: 1, EventBytes: 1},
		"empty events":   {Dir: "d", Subscribers: 1, Events: 1},
		"huge events":    {Dir: "d", Subscribers: 1, Events: 1, EventBytes: 65 << 20},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%s: Validate() = nil", name)
		}
	}
	if err := bench.DefaultSSEConfig("d").Validate(); err != nil {
		t.Errorf("default: %v", err)
	}
}

func TestSSEResultJSON(t *testing.T) {
	wantKeys(t, bench.SSEResult{}, "subscribers", "rss_peak_bytes", "replay_peak_over_baseline_bytes", "peak_over_baseline_bytes", "retained_bytes", "anon_after_bytes", "refused_status")
}
