package persistence

import (
	"context"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/holon-actors/holon-actors/messages"
)

// rawVersions counts every version Badger still holds of stream's event
// keys, deletion markers included: what compaction has not dropped yet.
func rawVersions(t *testing.T, s *BadgerStore, stream string) int {
	t.Helper()
	n := 0
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: streamPrefix(kindEvent, stream), AllVersions: true})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRetentionReclaimsMovedRecords: a retention pass that moved events
// leaves Badger nothing of them — no record, no deletion marker — so their
// disk is given back, while the journal and the archive still read the
// whole history and the store takes appends after it.
func TestRetentionReclaimsMovedRecords(t *testing.T) {
	ctx := context.Background()
	s := openBadger(t, testBadgerOptions(t.TempDir()))
	all := retentionStream(t, s, "a", 2000, 2000)
	if got := rawVersions(t, s, "a"); got != 2000 {
		t.Fatalf("before retention Badger holds %d versions of a's events, want 2000", got)
	}
	r := &Retention{Store: s, Policies: messages.RetentionPolicies{
		Default: &messages.RetentionPolicy{Mode: messages.RetentionArchive, KeepEvents: 100}}}
	res, err := r.RunOnce(ctx, retentionBase.Add(2000*time.Minute))
	if err != nil || len(res) != 1 || res[0].UpTo != 1900 {
		t.Fatalf("RunOnce = %+v, %v; want a moved up to 1900", res, err)
	}
	if got := rawVersions(t, s, "a"); got != 100 {
		t.Fatalf("after retention Badger holds %d versions of a's events (moved records or their deletion markers), want the 100 kept", got)
	}
	wantSameEvents(t, "read through the archive", mustRead(t, s, "a", 1, maxSeq, 0), all)
	mustAppend(t, s, "a", timedEvents("a", 2001, 2001))
	wantHighest(t, s, "a", 2001)
}

// TestReclaimOnClosedStore: Reclaim on a closed store says so.
func TestReclaimOnClosedStore(t *testing.T) {
	s, err := Open(testBadgerOptions(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Reclaim(); err != ErrClosed {
		t.Fatalf("Reclaim() on a closed store = %v, want ErrClosed", err)
	}
}

// TestCompactionsDue: a level at or over its target score is a compaction
// due; an empty store has none.
func TestCompactionsDue(t *testing.T) {
	levels := []badger.LevelInfo{{Level: 0, Score: 0.4}, {Level: 1, Score: 0.99}, {Level: 6}}
	if compactionsDue(levels) {
		t.Fatalf("compactionsDue(%+v) = true, want false", levels)
	}
	levels[1].Score = 1
	if !compactionsDue(levels) {
		t.Fatalf("compactionsDue(%+v) = false, want true", levels)
	}
	if s := openBadger(t, testBadgerOptions(t.TempDir())); s.Compacting() {
		t.Fatal("an empty store is compacting")
	}
}
