package persistence

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// countSyncs replaces s's sync with one that counts, and signals each on
// the returned channel when it has room.
func countSyncs(s *BadgerStore) (*atomic.Int64, <-chan struct{}) {
	var n atomic.Int64
	ch := make(chan struct{}, 1)
	sync := s.sync
	s.sync = func() error {
		n.Add(1)
		err := sync()
		select {
		case ch <- struct{}{}:
		default:
		}
		return err
	}
	return &n, ch
}

func mustDefer(t *testing.T, s *BadgerStore, stream string, after uint64, evs []messages.Event) uint64 {
	t.Helper()
	first, err := s.AppendDeferred(context.Background(), stream, after, evs)
	if err != nil {
		t.Fatalf("AppendDeferred(%q, after %d, %d events) = %v", stream, after, len(evs), err)
	}
	return first
}

func marksOf(t *testing.T, dir string) map[string]streamMark {
	t.Helper()
	mr, err := readMarks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return mr.marks
}

// TestDeferredAppendSyncsWithTheNextDurableOne: a deferred append is
// answered without a sync and is readable at once; its integrity mark and
// its subscribers' signal wait for the sync; the next durable append, of
// another stream, syncs once for both, records both marks and signals.
func TestDeferredAppendSyncsWithTheNextDurableOne(t *testing.T) {
	dir := t.TempDir()
	o := testBadgerOptions(dir)
	o.DeferredSyncAfter = time.Hour // only the durable append may sync
	s := openBadger(t, o)
	syncs, _ := countSyncs(s)
	sub := s.Subscribe(victim)
	defer sub.Close()

	if first := mustDefer(t, s, victim, 0, testEvents(victim, 1, 3)); first != 1 {
		t.Fatalf("first seq = %d, want 1", first)
	}
	if n := syncs.Load(); n != 0 {
		t.Fatalf("%d syncs before the deferred append was answered, want 0", n)
	}
	select {
	case <-sub.C:
		t.Fatal("a subscriber heard of the deferred events before they were synced")
	default:
	}
	wantSeqs(t, s, victim, 1, maxSeq, 0, seqRange(1, 3))
	if m := marksOf(t, dir)[victim]; m.highest != 0 {
		t.Fatalf("marks claim %d before the deferred events were synced", m.highest)
	}
	mustAppend(t, s, bystander, testEvents(bystander, 1, 1))
	if n := syncs.Load(); n != 1 {
		t.Fatalf("%d syncs for the durable append, want 1", n)
	}
	select {
	case <-sub.C:
	default:
		t.Fatal("the subscriber was not told of the deferred events once they were synced")
	}
	marks := marksOf(t, dir)
	if marks[victim].highest != 3 || marks[bystander].highest != 1 {
		t.Fatalf("marks after the durable append = %+v, want %s 3 and %s 1", marks, victim, bystander)
	}
	// A second deferred append of the same stream builds on the first.
	mustDefer(t, s, victim, 3, testEvents(victim, 4, 4))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if m := marksOf(t, dir)[victim]; m.highest != 4 {
		t.Fatalf("marks after Close = %d, want 4: Close syncs what was deferred", m.highest)
	}
	s = openBadger(t, testBadgerOptions(dir))
	wantSeqs(t, s, victim, 1, maxSeq, 0, seqRange(1, 4))
	if h := s.Health(); len(h.Lost) != 0 || len(h.Notes) != 0 || len(h.DroppedTails) != 0 {
		t.Fatalf("Health after reopen = %+v, want nothing found", h)
	}
}

// TestDeferredAppendSyncedWhenIdle: with nothing after it, a deferred
// append is synced by the committer itself, marks included.
func TestDeferredAppendSyncedWhenIdle(t *testing.T) {
	dir := t.TempDir()
	o := testBadgerOptions(dir)
	o.DeferredSyncAfter = time.Millisecond
	s := openBadger(t, o)
	syncs, synced := countSyncs(s)
	mustDefer(t, s, victim, 0, testEvents(victim, 1, 2))
	select {
	case <-synced:
	case <-time.After(30 * time.Second):
		t.Fatal("the deferred append was never synced")
	}
	s.commitMu.Lock()
	pending := s.pending
	s.commitMu.Unlock()
	if pending || syncs.Load() != 1 {
		t.Fatalf("after the idle sync: pending %v, %d syncs; want false, 1", pending, syncs.Load())
	}
	if m := marksOf(t, dir)[victim]; m.highest != 2 {
		t.Fatalf("marks after the idle sync = %d, want 2", m.highest)
	}
}

// TestDeferredAppendFenced: a deferred append after the wrong seq is
// refused like AppendAfter, and writes nothing.
func TestDeferredAppendFenced(t *testing.T) {
	s := openBadger(t, testBadgerOptions(t.TempDir()))
	mustAppend(t, s, victim, testEvents(victim, 1, 2))
	_, err := s.AppendDeferred(context.Background(), victim, 1, testEvents(victim, 3, 3))
	if !errors.Is(err, ErrSeqConflict) {
		t.Fatalf("AppendDeferred(after 1) on a stream at 2 = %v, want ErrSeqConflict", err)
	}
	wantSeqs(t, s, victim, 1, maxSeq, 0, seqRange(1, 2))
}

// TestDeferredNeverAcrossANewMemtable: a cycle stays unsynced only while
// the next commit is sure to land in the same memtable log, which the
// sync covers. The fill bound must therefore never be passed by Badger:
// after every append the active log is the one the committer believes,
// through several new memtables, with events of very different sizes
// (tiny ones are where Badger's per-entry overhead weighs most). The
// reclaim's flush (an outside write) syncs what was pending first.
func TestDeferredNeverAcrossANewMemtable(t *testing.T) {
	dir := t.TempDir()
	o := testBadgerOptions(dir)
	o.MemTableSize = 8 << 20 // Badger's least with its 1 MiB value threshold
	o.DeferredSyncAfter = time.Hour
	s := openBadger(t, o)
	first, err := activeMemFid(dir)
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 3000)
	var after uint64
	deferred, synced := 0, 0
	for i := 0; ; i++ {
		n := 1 + i%40
		evs := make([]messages.Event, n)
		for j := range evs {
			evs[j] = testEvent(victim, int(after)+j+1)
			if i%3 == 0 {
				evs[j].Payload = json.RawMessage(`{"pad":"` + big[:(i*37+j*101)%len(big)] + `","n":` + strconv.Itoa(j) + `}`)
			}
		}
		if i%5 == 4 {
			mustAppend(t, s, victim, evs)
		} else {
			mustDefer(t, s, victim, after, evs)
		}
		after += uint64(n)
		s.commitMu.Lock()
		fill, pending, misses := s.fill, s.pending, s.boundMisses
		s.commitMu.Unlock()
		active, err := activeMemFid(dir)
		if err != nil {
			t.Fatal(err)
		}
		if active != fill.fid || misses != 0 {
			t.Fatalf("append %d: Badger writes to memtable log %d, the committer believed %d (bound %+v of %d, %d misses): "+
				"the fill bound fell short", i, active, fill.fid, fill, o.MemTableSize, misses)
		}
		if i%5 != 4 {
			if pending {
				deferred++
			} else {
				synced++
			}
		}
		if fill.fid >= first+3 {
			break
		}
	}
	if deferred == 0 || synced == 0 {
		t.Fatalf("deferred appends: %d left unsynced, %d synced; want both (the bound gates them)", deferred, synced)
	}
	mustDefer(t, s, victim, after, testEvents(victim, 1, 1))
	if err := s.flushMemtables(); err != nil {
		t.Fatal(err)
	}
	s.commitMu.Lock()
	fill, pending := s.fill, s.pending
	s.commitMu.Unlock()
	active, err := activeMemFid(dir)
	if err != nil {
		t.Fatal(err)
	}
	if pending || fill.fid != active || fill.full(o.MemTableSize) {
		t.Fatalf("after the flush: pending %v, fill %+v, active log %d; want synced, a fresh fill of log %d", pending, fill, active, active)
	}
	if m := marksOf(t, dir)[victim]; m.highest != after+1 {
		t.Fatalf("marks after the flush = %d, want %d", m.highest, after+1)
	}
}

// TestDeferredBoundMissSyncsTheOldLog: were the fill's bound ever to fall
// short (simulated here by forgetting the fill after each append), the
// commit that finds a new memtable log with lazy writes unsynced syncs
// the old log, which holds them, before it is answered.
func TestDeferredBoundMissSyncsTheOldLog(t *testing.T) {
	dir := t.TempDir()
	o := testBadgerOptions(dir)
	o.MemTableSize = 8 << 20
	o.DeferredSyncAfter = time.Hour
	s := openBadger(t, o)
	var synced []int
	s.syncLog = func(fid int) error {
		synced = append(synced, fid) // the committer's, read below under commitMu
		return s.syncMemFile(fid)
	}
	start := s.fill.fid
	pad := `{"pad":"` + strings.Repeat("y", 4000) + `"}`
	var after uint64
	for i := 0; ; i++ {
		evs := testEvents(victim, int(after)+1, int(after)+20)
		for j := range evs {
			evs[j].Payload = json.RawMessage(pad)
		}
		mustDefer(t, s, victim, after, evs)
		after += uint64(len(evs))
		s.commitMu.Lock()
		s.fill = emptyFill(s.fill.fid) // an underestimate: every cycle may defer
		misses, fid, logs := s.boundMisses, s.fill.fid, slices.Clone(synced)
		s.commitMu.Unlock()
		if misses > 0 {
			if fid != start+1 || !slices.Equal(logs, []int{start}) {
				t.Fatalf("after the miss: active log %d, logs synced by hand %v; want %d and [%d]", fid, logs, start+1, start)
			}
			break
		}
		if i > 10_000 {
			active, _ := activeMemFid(dir)
			t.Fatalf("no miss of the bound noticed after 10,000 appends (Badger's active log %d, the committer's %d)", active, fid)
		}
	}
	if got := mustRead(t, s, victim, 1, maxSeq, 0); !slices.Equal(seqsOf(got), seqRange(1, after)) {
		t.Fatalf("read %d events, want seqs 1..%d", len(got), after)
	}
}
