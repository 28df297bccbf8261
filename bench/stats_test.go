package bench

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = time.Duration(i+1) * time.Millisecond
	}
	tests := []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty", nil, 0.5, 0},
		{"one", []time.Duration{7}, 0.99, 7},
		{"p50 of 100", hundred, 0.50, 50 * time.Millisecond},
		{"p99 of 100", hundred, 0.99, 99 * time.Millisecond},
		{"p100 of 100", hundred, 1, 100 * time.Millisecond},
		{"p99 of 4", []time.Duration{1, 2, 3, 4}, 0.99, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := percentile(tt.sorted, tt.p); got != tt.want {
				t.Errorf("percentile(%d values, %v) = %v, want %v", len(tt.sorted), tt.p, got, tt.want)
			}
		})
	}
}

func TestStoreBytes(t *testing.T) {
	dir := t.TempDir()
	files := map[string]int{
		"000001.sst": 100, "000001.vlog": 20, "MANIFEST": 3, // counted
		"00001.mem": 1000, "DISCARD": 1000, "KEYREGISTRY": 1000, "holon.lock": 1000, // not counted
	}
	for name, size := range files {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := storeBytes(dir)
	if err != nil || got != 123 {
		t.Errorf("storeBytes = %d, %v; want 123, nil", got, err)
	}
}
