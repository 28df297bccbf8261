package bench_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

func TestJournal(t *testing.T) {
	dir := t.TempDir()
	cfg := bench.DefaultJournalConfig(dir)
	cfg.Streams, cfg.Events, cfg.Batch, cfg.Keep = 4, 10, 3, true
	r, err := bench.Journal(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.TotalEvents != 40 || r.DurableEventsPerSec <= 0 || r.UnsyncedEventsPerSec <= 0 || r.BytesPerEvent <= 0 {
		t.Errorf("Journal = %+v, want 40 events and positive rates and size", r)
	}
	if r.AppendP50Ms <= 0 || r.AppendP50Ms > r.AppendP99Ms || r.AppendP99Ms > r.AppendMaxMs {
		t.Errorf("latencies p50 %v, p99 %v, max %v: want 0 < p50 <= p99 <= max", r.AppendP50Ms, r.AppendP99Ms, r.AppendMaxMs)
	}
	for _, sub := range []string{bench.JournalDurableDir, bench.JournalUnsyncedDir} {
		if _, err := os.Stat(filepath.Join(dir, sub)); err != nil {
			t.Errorf("Keep: %v", err)
		}
	}
}

func TestJournalRecovery(t *testing.T) {
	cfg := bench.DefaultJournalRecoveryConfig(t.TempDir())
	cfg.Streams, cfg.Events, cfg.Workers = 12, 9, 3
	r, err := bench.JournalRecovery(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 9 - 9/10 = 9: the snapshot covers every event, nothing to replay.
	if r.SnapshotSeq != 9 || r.SnapshotsLoaded != 12 || r.EventsRead != 0 || r.RecoveryMs < r.OpenMs {
		t.Errorf("JournalRecovery = %+v, want snapshot_seq 9, 12 snapshots, 0 events, recovery >= open", r)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"journal ok", bench.DefaultJournalConfig("d").Validate()},
		{"recovery ok", bench.DefaultJournalRecoveryConfig("d").Validate()},
	}
	for _, tt := range tests {
		if tt.err != nil {
			t.Errorf("%s: Validate() = %v, want nil", tt.name, tt.err)
		}
	}
	bad := []struct {
		name string
		err  error
	}{
		{"journal no dir", bench.DefaultJournalConfig("").Validate()},
		{"journal zero streams", func() error { c := bench.DefaultJournalConfig("d"); c.Streams = 0; return c.Validate() }()},
		{"journal zero batch", func() error { c := bench.DefaultJournalConfig("d"); c.Batch = 0; return c.Validate() }()},
		{"recovery zero events", func() error { c := bench.DefaultJournalRecoveryConfig("d"); c.Events = 0; return c.Validate() }()},
		{"recovery negative workers", func() error { c := bench.DefaultJournalRecoveryConfig("d"); c.Workers = -1; return c.Validate() }()},
	}
	for _, tt := range bad {
		if tt.err == nil {
			t.Errorf("%s: Validate() = nil, want an error", tt.name)
		}
	}
}
