package bench_test

import (
	"context"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

// TestStorageSmall runs the storage bench at a small size: retention
// archives what lies behind its window, so the store with retention is the
// smaller one, and the listing and status are timed over every agent.
func TestStorageSmall(t *testing.T) {
	cfg := bench.DefaultStorageConfig(t.TempDir())
	cfg.Turns, cfg.KeepEvents, cfg.SnapshotEvery, cfg.RetainEvery = 3000, 1000, 100, 500
	cfg.JournalBytes, cfg.Agents, cfg.Calls = 4<<20, 4, 3
	r, err := bench.Storage(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	events := int(r.EventsPerTurn * float64(cfg.Turns))
	if r.ArchivedEvents < events-int(cfg.KeepEvents)-int(r.EventsPerTurn)*cfg.SnapshotEvery || r.ArchiveBytes <= 0 {
		t.Errorf("archived %d of %d events (%d bytes of archive), want all but the newest %d and a snapshot's distance",
			r.ArchivedEvents, events, r.ArchiveBytes, cfg.KeepEvents)
	}
	// The engine reclaims the space of the moved records when it compacts
	// them, which a store this small never needs to; so the journal's
	// count, not the directory's size, is what is checked here.
	if window := cfg.KeepEvents + uint64(r.EventsPerTurn)*uint64(cfg.SnapshotEvery); r.JournalEvents > window || r.JournalEvents < cfg.KeepEvents {
		t.Errorf("the journal holds %d events with retention, want %d..%d", r.JournalEvents, cfg.KeepEvents, window)
	}
	if r.BytesOnDisk <= 0 || r.BytesOnDiskRetentionOff <= 0 {
		t.Errorf("on disk %d bytes with retention, %d without: want both measured", r.BytesOnDisk, r.BytesOnDiskRetentionOff)
	}
	if r.JournalBytes < cfg.JournalBytes || r.ListP50Ms <= 0 || r.StatusP50Ms <= 0 || r.DormantListP50Ms <= 0 || r.DormantStatusP50Ms <= 0 {
		t.Errorf("result %+v: want a journal of at least %d bytes and timed calls", r, cfg.JournalBytes)
	}
}
