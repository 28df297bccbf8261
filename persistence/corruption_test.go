package persistence

// Torn writes and corruption (research R3), Badger only: damage is written
// under the store's keys, then the store must find it, contain it to the
// damaged stream and report it in Health.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// Two streams in every case: the victim gets the damage, the bystander must
// not notice.
const (
	victim    = "agent-victim"
	bystander = "agent-bystander"
)

// rawValue returns the bytes stored under key.
func rawValue(t *testing.T, s *BadgerStore, key []byte) []byte {
	t.Helper()
	var v []byte
	err := s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(key)
		if err != nil {
			return err
		}
		v, err = item.ValueCopy(nil)
		return err
	})
	if err != nil {
		t.Fatalf("raw get %q: %v", key, err)
	}
	return v
}

// injectRaw stores value under key behind the store's back, as a torn
// write or bit rot would leave it.
func injectRaw(t *testing.T, s *BadgerStore, key, value []byte) {
	t.Helper()
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(key, value) }); err != nil {
		t.Fatalf("raw set %q: %v", key, err)
	}
}

// damage turns a good record (of seq, with the record at seq-1 for
// reference) into a bad one.
type damage struct {
	name  string
	spoil func(rec, prev []byte) []byte
}

func flipAt(i int) func(rec, _ []byte) []byte {
	return func(rec, _ []byte) []byte {
		out := slices.Clone(rec)
		out[(i+len(out))%len(out)] ^= 0x5a
		return out
	}
}

var recordDamages = []damage{
	{"truncated to half", func(rec, _ []byte) []byte { return slices.Clone(rec[:len(rec)/2]) }},
	{"truncated inside the header", func(rec, _ []byte) []byte { return slices.Clone(rec[:7]) }},
	{"empty value", func([]byte, []byte) []byte { return []byte{} }},
	{"garbage", func(rec, _ []byte) []byte { return []byte(strings.Repeat("\xa5garbage", 8)) }},
	{"flipped payload byte", flipAt(-2)},
	{"flipped checksum byte", flipAt(2)},
	{"flipped seq byte", flipAt(12)},
	{"record of the previous seq", func(_, prev []byte) []byte { return slices.Clone(prev) }},
}

// corruptionRow is one line of the report table.
type corruptionRow struct {
	kind, damage, want string
	detected           bool
	// dropped and quarantined count the records dropped and the streams
	// quarantined when the damage was detected as expected.
	dropped, quarantined int
}

type corruptionReport struct {
	mu   sync.Mutex
	rows []corruptionRow
}

func (r *corruptionReport) add(row corruptionRow) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rows = append(r.rows, row)
}

func (r *corruptionReport) log(t *testing.T) {
	var b strings.Builder
	detected, dropped, quarantined := 0, 0, 0
	fmt.Fprintf(&b, "%-17s %-34s %-36s %s\n", "injected into", "damage", "expected handling", "detected")
	for _, row := range r.rows {
		fmt.Fprintf(&b, "%-17s %-34s %-36s %v\n", row.kind, row.damage, row.want, row.detected)
		if row.detected {
			detected++
			dropped += row.dropped
			quarantined += row.quarantined
		}
	}
	pct := 0.0
	if len(r.rows) > 0 {
		pct = 100 * float64(detected) / float64(len(r.rows))
	}
	fmt.Fprintf(&b, "cases injected %d, detected %d (%.0f%%); records dropped %d; streams quarantined %d; "+
		"bystander streams failed 0 (any failure fails the case)", len(r.rows), detected, pct, dropped, quarantined)
	t.Log("corruption report:\n" + b.String())
}

// corruptionSetup opens a store in a fresh directory with victim events
// 1..n (single appends, then a batch of two) and bystander events 1..3.
func corruptionSetup(t *testing.T, n int) (*BadgerStore, string) {
	t.Helper()
	dir := t.TempDir()
	s := openBadger(t, testBadgerOptions(dir))
	for i := 1; i < n-1; i++ {
		mustAppend(t, s, victim, testEvents(victim, i, i))
	}
	mustAppend(t, s, victim, testEvents(victim, n-1, n))
	mustAppend(t, s, bystander, testEvents(bystander, 1, 3))
	return s, dir
}

func reopenBadger(t *testing.T, s *BadgerStore, dir string) *BadgerStore {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}
	return openBadger(t, testBadgerOptions(dir))
}

// wantBystanderFine checks that the undamaged stream reads and appends.
func wantBystanderFine(t *testing.T, s Store) {
	t.Helper()
	h := mustHighest(t, s, bystander)
	wantSeqs(t, s, bystander, 1, maxSeq, 0, seqRange(1, h))
	wantAppendFirst(t, s, bystander, testEvents(bystander, int(h+1), int(h+1)), h+1)
}

func droppedSeqs(h Health, stream string) []uint64 {
	var out []uint64
	for _, d := range h.DroppedTails {
		if d.Stream == stream {
			out = append(out, d.Seq)
		}
	}
	slices.Sort(out)
	return out
}

func quarantinedAt(h Health, stream string) (uint64, bool) {
	for _, q := range h.Quarantined {
		if q.Stream == stream {
			return q.Seq, true
		}
	}
	return 0, false
}

func TestBadgerCorruption(t *testing.T) {
	var report corruptionReport
	t.Cleanup(func() { report.log(t) })
	t.Run("tail", func(t *testing.T) {
		for _, d := range recordDamages {
			t.Run(d.name, func(t *testing.T) {
				ok := testTornTail(t, d, []uint64{5})
				report.add(corruptionRow{"journal tail", d.name, "dropped at open, seq not reused", ok, 1, 0})
			})
		}
		t.Run("two torn records", func(t *testing.T) {
			ok := testTornTail(t, recordDamages[0], []uint64{4, 5})
			report.add(corruptionRow{"journal tail", "two records truncated", "both dropped at open", ok, 2, 0})
		})
	})
	t.Run("middle", func(t *testing.T) {
		for _, d := range recordDamages {
			t.Run(d.name, func(t *testing.T) {
				ok := testMidLogCorruption(t, d)
				report.add(corruptionRow{"journal middle", d.name, "stream quarantined on read", ok, 0, 1})
			})
		}
	})
	t.Run("gap", func(t *testing.T) {
		for _, seq := range []uint64{1, 3, 5} {
			t.Run(fmt.Sprintf("record %d of 5 deleted", seq), func(t *testing.T) {
				ok := testGap(t, seq)
				report.add(corruptionRow{"journal gap", fmt.Sprintf("record %d of 5 deleted", seq), "stream quarantined on read", ok, 0, 1})
			})
		}
	})
	t.Run("long corrupt tail quarantines at open", func(t *testing.T) {
		ok := testLongCorruptTail(t)
		report.add(corruptionRow{"journal tail", "18 records flipped", "stream quarantined at open", ok, 0, 1})
	})
	t.Run("newer record format is not corruption", func(t *testing.T) {
		ok := testNewerFormatRecord(t)
		report.add(corruptionRow{"journal tail+mid", "format byte 0x02", "ErrUnsupportedRecord, kept", ok, 0, 0})
	})
	t.Run("snapshot", func(t *testing.T) {
		tests := []struct {
			name    string
			corrupt []uint64 // seqs of the snapshots damaged
			want    uint64   // seq LoadSnapshot should fall back to; 0 for none
		}{
			{"newest", []uint64{30}, 20},
			{"two newest", []uint64{30, 20}, 10},
			{"all", []uint64{30, 20, 10}, 0},
			{"older only", []uint64{20}, 30},
		}
		for _, tt := range tests {
			for _, d := range []damage{recordDamages[0], recordDamages[4], recordDamages[6]} {
				t.Run(tt.name+"/"+d.name, func(t *testing.T) {
					ok := testCorruptSnapshot(t, d, tt.corrupt, tt.want)
					want := fmt.Sprintf("skipped, falls back to seq %d", tt.want)
					switch tt.want {
					case 0:
						want = "skipped, none left: full replay"
					case 30:
						want = "newest intact: loads seq 30"
					}
					report.add(corruptionRow{"snapshot", tt.name + ": " + d.name, want, ok, 0, 0})
				})
			}
		}
	})
}

// testTornTail damages the victim's newest records and reopens: they must
// be dropped and reported, HighestSeq must stay, and the next append must
// get HighestSeq+1. It reports whether the damage was detected.
func testTornTail(t *testing.T, d damage, seqs []uint64) bool {
	const n = 5
	s, dir := corruptionSetup(t, n)
	for _, seq := range seqs {
		injectRaw(t, s, eventKey(victim, seq), d.spoil(rawValue(t, s, eventKey(victim, seq)), rawValue(t, s, eventKey(victim, seq-1))))
	}
	s = reopenBadger(t, s, dir)
	h := s.Health()
	detected := slices.Equal(droppedSeqs(h, victim), seqs)
	if !detected {
		t.Errorf("Health().DroppedTails = %+v, want seqs %v of %s", h.DroppedTails, seqs, victim)
	}
	if len(h.Quarantined) != 0 {
		t.Errorf("Health().Quarantined = %+v, want none for a torn tail", h.Quarantined)
	}
	if len(droppedSeqs(h, bystander)) != 0 {
		t.Errorf("Health().DroppedTails = %+v, lists the bystander", h.DroppedTails)
	}
	wantHighest(t, s, victim, n)
	wantSeqs(t, s, victim, 1, maxSeq, 0, seqRange(1, seqs[0]-1))
	wantAppendFirst(t, s, victim, testEvents(victim, n+1, n+1), n+1)
	want := append(seqRange(1, seqs[0]-1), n+1)
	wantSeqs(t, s, victim, 1, maxSeq, 0, want)
	wantBystanderFine(t, s)
	// The repair is durable: the next open finds nothing new.
	s = reopenBadger(t, s, dir)
	if h := s.Health(); len(h.DroppedTails) != 0 || len(h.Quarantined) != 0 {
		t.Errorf("Health() after a second reopen = %+v, want no damage", h)
	}
	wantSeqs(t, s, victim, 1, maxSeq, 0, want)
	return detected
}

// testMidLogCorruption damages the victim's record 3 of 5: Read must
// quarantine the stream, which then refuses appends, also after reopen,
// while the bystander works.
func testMidLogCorruption(t *testing.T, d damage) bool {
	const n, bad = 5, 3
	ctx := context.Background()
	s, dir := corruptionSetup(t, n)
	injectRaw(t, s, eventKey(victim, bad), d.spoil(rawValue(t, s, eventKey(victim, bad)), rawValue(t, s, eventKey(victim, bad-1))))
	_, err := s.Read(ctx, victim, 1, maxSeq, 0)
	detected := errors.Is(err, ErrQuarantined)
	if !detected {
		t.Errorf("Read(%s) over a corrupt seq %d = %v, want ErrQuarantined", victim, bad, err)
	}
	check := func(when string) {
		t.Helper()
		if q, ok := quarantinedAt(s.Health(), victim); !ok || q != bad {
			t.Errorf("%s: Health().Quarantined = %+v, want %s at seq %d", when, s.Health().Quarantined, victim, bad)
		}
		if _, err := s.Read(ctx, victim, 1, maxSeq, 0); !errors.Is(err, ErrQuarantined) {
			t.Errorf("%s: Read(%s) = %v, want ErrQuarantined", when, victim, err)
		}
		if first, err := s.Append(ctx, victim, testEvents(victim, n+1, n+1)); !errors.Is(err, ErrQuarantined) {
			t.Errorf("%s: Append(%s) = %d, %v; want ErrQuarantined", when, victim, first, err)
		}
		wantHighest(t, s, victim, n) // nothing was appended
		wantBystanderFine(t, s)
		if _, ok := quarantinedAt(s.Health(), bystander); ok {
			t.Errorf("%s: the bystander is quarantined", when)
		}
	}
	check("after the read")
	s = reopenBadger(t, s, dir)
	check("after reopen")
	if h := s.Health(); len(h.DroppedTails) != 0 {
		t.Errorf("Health().DroppedTails = %+v, want none for mid-log damage", h.DroppedTails)
	}
	return detected
}

// testLongCorruptTail damages more tail records than Open drops: that is
// damage, not a torn write, so the stream is quarantined at open.
func testLongCorruptTail(t *testing.T) bool {
	const n = 20
	s, dir := corruptionSetup(t, n)
	for seq := uint64(3); seq <= n; seq++ {
		injectRaw(t, s, eventKey(victim, seq), flipAt(-2)(rawValue(t, s, eventKey(victim, seq)), nil))
	}
	s = reopenBadger(t, s, dir)
	_, detected := quarantinedAt(s.Health(), victim)
	if !detected {
		t.Errorf("Health() = %+v, want %s quarantined", s.Health(), victim)
	}
	if _, err := s.Append(context.Background(), victim, testEvents(victim, n+1, n+1)); !errors.Is(err, ErrQuarantined) {
		t.Errorf("Append(%s) = %v, want ErrQuarantined", victim, err)
	}
	wantHighest(t, s, victim, n)
	wantBystanderFine(t, s)
	return detected
}

// testNewerFormatRecord stores intact records of a newer format (format
// byte 2) at the tail and in the middle: they are not corruption, so they
// are neither dropped nor quarantined; Read reports ErrUnsupportedRecord.
func testNewerFormatRecord(t *testing.T) bool {
	const n = 5
	ctx := context.Background()
	s, dir := corruptionSetup(t, n)
	for _, seq := range []uint64{2, n} {
		rec := rawValue(t, s, eventKey(victim, seq))
		rec[0] = 0x02
		injectRaw(t, s, eventKey(victim, seq), rec)
	}
	s = reopenBadger(t, s, dir)
	h := s.Health()
	ok := len(h.DroppedTails) == 0 && len(h.Quarantined) == 0
	if !ok {
		t.Errorf("Health() = %+v, want no drops or quarantine for newer-format records", h)
	}
	_, err := s.Read(ctx, victim, 1, maxSeq, 0)
	if !errors.Is(err, ErrUnsupportedRecord) || errors.Is(err, ErrQuarantined) {
		t.Errorf("Read(%s) = %v, want ErrUnsupportedRecord and no quarantine", victim, err)
		ok = false
	}
	wantSeqs(t, s, victim, 3, 4, 0, seqRange(3, 4))
	wantHighest(t, s, victim, n)
	wantBystanderFine(t, s)
	return ok
}

// testCorruptSnapshot saves snapshots at 10, 20 and 30, damages some and
// checks that LoadSnapshot skips them, counts them and falls back.
func testCorruptSnapshot(t *testing.T, d damage, corrupt []uint64, want uint64) bool {
	ctx := context.Background()
	s, dir := corruptionSetup(t, 5)
	snaps := map[uint64]Snapshot{}
	for _, seq := range []uint64{10, 20, 30} {
		snap := Snapshot{Stream: victim, Seq: seq, Timestamp: snapTime(int(seq)), Data: []byte(fmt.Sprintf(`{"state":%d}`, seq))}
		if err := s.SaveSnapshot(ctx, snap); err != nil {
			t.Fatalf("SaveSnapshot(%d) = %v", seq, err)
		}
		snaps[seq] = snap
	}
	for _, seq := range corrupt {
		injectRaw(t, s, snapshotKey(victim, seq), d.spoil(rawValue(t, s, snapshotKey(victim, seq)), rawValue(t, s, snapshotKey(victim, 10))))
	}
	detected := true
	for _, reopened := range []bool{false, true} {
		if reopened {
			s = reopenBadger(t, s, dir)
		}
		before := s.Health().SkippedSnapshots
		got, ok, err := s.LoadSnapshot(ctx, victim, LatestSnapshot())
		skipped := s.Health().SkippedSnapshots - before
		wantSkipped := 0
		for _, seq := range corrupt {
			if seq > want {
				wantSkipped++
			}
		}
		switch {
		case err != nil:
			t.Errorf("reopened %v: LoadSnapshot = %v, want a fallback", reopened, err)
			detected = false
		case want == 0 && ok:
			t.Errorf("reopened %v: LoadSnapshot = %s, want none", reopened, describeSnapshot(got))
			detected = false
		case want != 0 && (!ok || !sameSnapshot(got, snaps[want])):
			t.Errorf("reopened %v: LoadSnapshot = %s, %v; want %s", reopened, describeSnapshot(got), ok, describeSnapshot(snaps[want]))
			detected = false
		}
		if skipped != wantSkipped {
			t.Errorf("reopened %v: SkippedSnapshots rose by %d, want %d", reopened, skipped, wantSkipped)
			detected = false
		}
	}
	if h := s.Health(); len(h.Quarantined) != 0 {
		t.Errorf("Health().Quarantined = %+v, want none for snapshot damage", h.Quarantined)
	}
	wantSeqs(t, s, victim, 1, maxSeq, 0, seqRange(1, 5))
	return detected
}

// testGap deletes one of the victim's records behind the store's back, as a
// lost table or WAL file would: a read must not stop short silently but
// quarantine the stream, wrapping ErrGap, while the bystander works.
func testGap(t *testing.T, seq uint64) bool {
	const n = 5
	ctx := context.Background()
	s, _ := corruptionSetup(t, n)
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Delete(eventKey(victim, seq)) }); err != nil {
		t.Fatalf("raw delete: %v", err)
	}
	_, err := s.Read(ctx, victim, 1, maxSeq, 0)
	detected := errors.Is(err, ErrQuarantined) && errors.Is(err, ErrGap)
	if !detected {
		t.Errorf("Read(%s) with seq %d missing = %v, want ErrQuarantined and ErrGap", victim, seq, err)
	}
	if q, ok := quarantinedAt(s.Health(), victim); !ok || q != seq {
		t.Errorf("Health().Quarantined = %+v, want %s at seq %d", s.Health().Quarantined, victim, seq)
	}
	wantBystanderFine(t, s)
	return detected
}

// TestBadgerReadAfterRetentionIsNoGap pins that events deleted by
// DeleteUpTo, and a dropped corrupt tail, are missing by design.
func TestBadgerReadAfterRetentionIsNoGap(t *testing.T) {
	s, dir := corruptionSetup(t, 6)
	mustDelete(t, s, victim, 3)
	injectRaw(t, s, eventKey(victim, 6), []byte("torn"))
	s = reopenBadger(t, s, dir)
	mustAppend(t, s, victim, testEvents(victim, 7, 7))
	wantSeqs(t, s, victim, 1, maxSeq, 0, []uint64{4, 5, 7})
	wantSeqs(t, s, victim, 5, 6, 0, []uint64{5})
	if h := s.Health(); len(h.Quarantined) != 0 {
		t.Errorf("Health().Quarantined = %+v, want none", h.Quarantined)
	}
}
