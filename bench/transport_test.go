package bench_test

import (
	"context"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

func TestTransport(t *testing.T) {
	r, err := bench.Transport(context.Background(), bench.TransportConfig{Rounds: 20})
	if err != nil {
		t.Fatal(err)
	}
	if r.TransportMeanUS <= 0 || r.BareMeanUS <= 0 || r.TransportOverheadRatio <= 0 {
		t.Fatalf("Transport = %+v", r)
	}
	if err := (bench.TransportConfig{Rounds: 1}).Validate(); err == nil {
		t.Fatal("Validate accepted 1 round")
	}
	wantKeys(t, bench.TransportResult{}, "transport_overhead_ratio", "transport_mean_us", "bare_mean_us")
}
