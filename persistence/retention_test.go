package persistence

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// retentionBase is when event 1 of a retention test stream was written;
// event n was written n-1 minutes later.
var retentionBase = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// timedEvents returns events n = from..to, event n at retentionBase+(n-1)m.
func timedEvents(stream string, from, to int) []messages.Event {
	evs := testEvents(stream, from, to)
	for i := range evs {
		evs[i].At = retentionBase.Add(time.Duration(from+i-1) * time.Minute)
	}
	return evs
}

// retentionStream writes events 1..n to stream and a snapshot at snap (none
// when 0), and returns every event as read back.
func retentionStream(t *testing.T, s Store, stream string, n int, snap uint64) []messages.Event {
	t.Helper()
	mustAppend(t, s, stream, timedEvents(stream, 1, n))
	if snap > 0 {
		if err := s.SaveSnapshot(context.Background(), Snapshot{Stream: stream, Seq: snap, Timestamp: retentionBase, Data: []byte("state")}); err != nil {
			t.Fatal(err)
		}
	}
	return mustRead(t, s, stream, 1, maxSeq, 0)
}

// sameEvents reports whether got are exactly want (seqs, ids, payloads).
func wantSameEvents(t *testing.T, what string, got, want []messages.Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d events %v, want %d %v", what, len(got), rangeOfSeqs(got), len(want), rangeOfSeqs(want))
	}
	for i := range want {
		if !sameEvent(got[i], want[i], want[i].Seq) || got[i].ID != want[i].ID {
			t.Fatalf("%s: event %d = %+v, want %+v", what, i, got[i], want[i])
		}
	}
}

func rangeOfSeqs(evs []messages.Event) string {
	if len(evs) == 0 {
		return "none"
	}
	return rangeString(evs[0].Seq, evs[len(evs)-1].Seq)
}

func TestRetentionMovesExactlyTheAllowedRange(t *testing.T) {
	archive := func(keep uint64, age time.Duration) messages.RetentionPolicy {
		return messages.RetentionPolicy{Mode: messages.RetentionArchive, KeepEvents: keep, MaxAge: age}
	}
	// 100 events, event n written at minute n-1; "now" is minute 100 unless
	// a case says otherwise, so an event n is older than d minutes when
	// n-1 < 100-d, i.e. n <= 100-d.
	tests := []struct {
		name   string
		snap   uint64
		policy messages.RetentionPolicy
		now    time.Duration // since retentionBase
		want   uint64        // highest seq out of the journal; 0: nothing
	}{
		{name: "keep moves nothing", snap: 100, policy: messages.RetentionPolicy{Mode: messages.RetentionKeep}, want: 0},
		{name: "no snapshot moves nothing", snap: 0, policy: archive(0, 0), want: 0},
		{name: "up to the snapshot", snap: 60, policy: archive(0, 0), want: 60},
		{name: "count window below the snapshot", snap: 90, policy: archive(30, 0), want: 70},
		{name: "snapshot below the count window", snap: 40, policy: archive(30, 0), want: 40},
		{name: "count window holds everything", snap: 100, policy: archive(100, 0), want: 0},
		{name: "age window", snap: 100, policy: archive(0, 25*time.Minute), want: 75},
		{name: "age window at the very first event", snap: 100, policy: archive(0, 99*time.Minute), want: 1},
		{name: "age window before the first event", snap: 100, policy: archive(0, 100*time.Minute), want: 0},
		{name: "age window later in time", snap: 100, policy: archive(0, 25*time.Minute), now: 110 * time.Minute, want: 85},
		{name: "age and count: count binds", snap: 100, policy: archive(50, 10*time.Minute), want: 50},
		{name: "age and count: age binds", snap: 100, policy: archive(5, 30*time.Minute), want: 70},
		{name: "all three: snapshot binds", snap: 20, policy: archive(5, 10*time.Minute), want: 20},
		{name: "drop", snap: 60, policy: messages.RetentionPolicy{Mode: messages.RetentionDrop}, want: 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s := openBadger(t, testBadgerOptions(t.TempDir()))
			all := retentionStream(t, s, "a", 100, tt.snap)
			other := retentionStream(t, s, "b", 10, 10)
			now := tt.now
			if now == 0 {
				now = 100 * time.Minute
			}
			r := &Retention{Store: s, Policies: messages.RetentionPolicies{
				Agents: map[string]messages.RetentionPolicy{"a": tt.policy, "b": {Mode: messages.RetentionKeep}}}}
			res, err := r.RunOnce(ctx, retentionBase.Add(now))
			if err != nil {
				t.Fatal(err)
			}
			var got uint64
			if len(res) > 0 {
				got = res[0].UpTo
			}
			if got != tt.want || len(res) > 1 {
				t.Fatalf("RunOnce moved %+v, want a up to %d", res, tt.want)
			}
			if from, _ := s.RetainedFrom(ctx, "a"); from != tt.want+1 {
				t.Fatalf("RetainedFrom = %d, want %d", from, tt.want+1)
			}
			wantHighest(t, s, "a", 100)
			if tt.policy.Mode == messages.RetentionDrop {
				wantSameEvents(t, "read after drop", mustRead(t, s, "a", 1, maxSeq, 0), all[tt.want:])
			} else {
				wantSameEvents(t, "read through the archive", mustRead(t, s, "a", 1, maxSeq, 0), all)
			}
			wantSameEvents(t, "other stream", mustRead(t, s, "b", 1, maxSeq, 0), other)
			// A second pass at the same time has nothing left to move.
			if res, err := r.RunOnce(ctx, retentionBase.Add(now)); err != nil || len(res) != 0 {
				t.Fatalf("second RunOnce = %+v, %v, want nothing", res, err)
			}
			journal, err := s.keysInRange(kindEvent, "a", 1, maxSeq)
			if err != nil || uint64(len(journal)) != 100-tt.want {
				t.Fatalf("journal holds %d records, want %d (%v)", len(journal), 100-tt.want, err)
			}
		})
	}
}

func TestRetentionRunsOnItsTicks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := openBadger(t, testBadgerOptions(t.TempDir()))
	all := retentionStream(t, s, "a", 50, 50)
	r := &Retention{Store: s, Log: slog.New(slog.DiscardHandler), Policies: messages.RetentionPolicies{Default: &messages.RetentionPolicy{
		Mode: messages.RetentionArchive, MaxAge: time.Hour}}}
	ticks := make(chan time.Time)
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx, ticks) }()
	ticks <- retentionBase.Add(time.Hour) // nothing is an hour old yet
	ticks <- retentionBase.Add(time.Hour + 20*time.Minute)
	ticks <- retentionBase.Add(time.Hour + 20*time.Minute) // unbuffered: the previous pass is over
	cancel()
	<-done
	if from, _ := s.RetainedFrom(ctx, "a"); from != 21 {
		t.Fatalf("after the passes RetainedFrom = %d, want 21 (events 1..20 are over an hour old)", from)
	}
	wantSameEvents(t, "read through the archive", mustRead(t, s, "a", 1, maxSeq, 0), all)
}

func TestArchiveReadsThroughPages(t *testing.T) {
	ctx := context.Background()
	s := openBadger(t, testBadgerOptions(t.TempDir()))
	all := retentionStream(t, s, "a", 40, 40)
	if n, err := s.ArchiveUpTo(ctx, "a", 25); err != nil || n != 25 {
		t.Fatalf("ArchiveUpTo(25) = %d, %v", n, err)
	}
	tests := []struct {
		name             string
		from, to         uint64
		limit, maxBytes  int
		wantFrom, wantTo uint64
	}{
		{name: "all", from: 1, to: maxSeq, wantFrom: 1, wantTo: 40},
		{name: "archive only", from: 3, to: 9, wantFrom: 3, wantTo: 9},
		{name: "across the boundary", from: 20, to: 30, wantFrom: 20, wantTo: 30},
		{name: "limit inside the archive", from: 1, to: maxSeq, limit: 5, wantFrom: 1, wantTo: 5},
		{name: "limit across the boundary", from: 22, to: maxSeq, limit: 6, wantFrom: 22, wantTo: 27},
		{name: "journal only", from: 26, to: 28, wantFrom: 26, wantTo: 28},
		{name: "one byte pages still move", from: 25, to: maxSeq, maxBytes: 1, wantFrom: 25, wantTo: 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.ReadPage(ctx, "a", tt.from, tt.to, tt.limit, tt.maxBytes)
			if err != nil {
				t.Fatal(err)
			}
			wantSameEvents(t, "page", got, all[tt.wantFrom-1:tt.wantTo])
		})
	}
	segs, err := s.ArchivedSegments(ctx, "a")
	if err != nil || len(segs) != 1 || segs[0].From != 1 || segs[0].To != 25 || segs[0].Bytes == 0 {
		t.Fatalf("ArchivedSegments = %+v, %v", segs, err)
	}
}

func TestArchiveSurvivesReopenAndDeleteUpToPurgesIt(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(testBadgerOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	all := retentionStream(t, s, "a/b", 30, 30) // a stream name that is no file name
	if _, err := s.ArchiveUpTo(ctx, "a/b", 10); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ArchiveUpTo(ctx, "a/b", 20); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openBadger(t, testBadgerOptions(dir))
	wantSameEvents(t, "after reopen", mustRead(t, s, "a/b", 1, maxSeq, 0), all)
	mustDelete(t, s, "a/b", 15)
	wantSameEvents(t, "after DeleteUpTo(15)", mustRead(t, s, "a/b", 1, maxSeq, 0), all[15:])
	segs, _ := s.ArchivedSegments(ctx, "a/b")
	if len(segs) != 1 || segs[0].From != 11 {
		t.Fatalf("segments after DeleteUpTo(15) = %+v, want only 11..20", segs)
	}
	mustDelete(t, s, "a/b", 30)
	if evs := mustRead(t, s, "a/b", 1, maxSeq, 0); len(evs) != 0 {
		t.Fatalf("after DeleteUpTo(30) read %v", rangeOfSeqs(evs))
	}
	if segs, _ := s.ArchivedSegments(ctx, "a/b"); len(segs) != 0 {
		t.Fatalf("segments after DeleteUpTo(30) = %+v", segs)
	}
	wantHighest(t, s, "a/b", 30)
}

// TestArchiveCrashMidMove stops a move at each point a crash can cut it
// (every step before is synced) and checks that reopening the store loses
// nothing and duplicates nothing, and that the move can be run again.
func TestArchiveCrashMidMove(t *testing.T) {
	tests := []struct {
		name string
		// crash leaves the store as a move of 1..upTo cut at one point.
		crash   func(t *testing.T, s *BadgerStore, upTo uint64)
		wantLow uint64 // retention mark after reopening
	}{
		{name: "temporary segment written", wantLow: 0, crash: func(t *testing.T, s *BadgerStore, upTo uint64) {
			dir := s.streamArchiveDir("a")
			recs := mustRawRecords(t, s, 1, upTo)
			if _, err := writeSegment(dir, 1, upTo, recs); err != nil {
				t.Fatal(err)
			}
			final := filepath.Join(dir, segmentName(1, upTo))
			if err := os.Rename(final, final+segmentTmp); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "segment synced, journal untouched", wantLow: 0, crash: func(t *testing.T, s *BadgerStore, upTo uint64) {
			if _, err := writeSegment(s.streamArchiveDir("a"), 1, upTo, mustRawRecords(t, s, 1, upTo)); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "mark raised with the first deletions only", wantLow: 30, crash: func(t *testing.T, s *BadgerStore, upTo uint64) {
			if _, err := writeSegment(s.streamArchiveDir("a"), 1, upTo, mustRawRecords(t, s, 1, upTo)); err != nil {
				t.Fatal(err)
			}
			// The first chunk of a move's deletions carries the mark.
			if err := s.deleteKeysMarked(context.Background(), "a", [][]byte{eventKey("a", 1), eventKey("a", 2)}, upTo); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			s, err := Open(testBadgerOptions(dir))
			if err != nil {
				t.Fatal(err)
			}
			all := retentionStream(t, s, "a", 50, 50)
			s.markArchived("a")
			tt.crash(t, s, 30)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = openBadger(t, testBadgerOptions(dir))
			wantSameEvents(t, "after reopen", mustRead(t, s, "a", 1, maxSeq, 0), all)
			if from, _ := s.RetainedFrom(ctx, "a"); from != tt.wantLow+1 {
				t.Fatalf("RetainedFrom = %d, want %d", from, tt.wantLow+1)
			}
			journal, _ := s.keysInRange(kindEvent, "a", 1, maxSeq)
			segs, _ := s.ArchivedSegments(ctx, "a")
			archived := 0
			for _, seg := range segs {
				archived += int(seg.To - seg.From + 1)
			}
			if len(journal)+archived != 50 || journal[0] == nil || seqOf(journal[0]) != tt.wantLow+1 {
				t.Fatalf("journal holds %d records from %d, archive %d events (%+v): want 50 in all, journal from %d",
					len(journal), seqOf(journal[0]), archived, segs, tt.wantLow+1)
			}
			if tmps, _ := filepath.Glob(filepath.Join(s.streamArchiveDir("a"), "*"+segmentTmp)); len(tmps) > 0 {
				t.Fatalf("temporary files left: %v", tmps)
			}
			if _, err := s.ArchiveUpTo(ctx, "a", 40); err != nil {
				t.Fatal(err)
			}
			wantSameEvents(t, "after the move is run again", mustRead(t, s, "a", 1, maxSeq, 0), all)
			if from, _ := s.RetainedFrom(ctx, "a"); from != 41 {
				t.Fatalf("RetainedFrom after the second move = %d, want 41", from)
			}
		})
	}
}

func mustRawRecords(t *testing.T, s *BadgerStore, from, to uint64) []segmentRecord {
	t.Helper()
	recs, err := s.rawRecords("a", from, to)
	if err != nil || len(recs) != int(to-from+1) {
		t.Fatalf("rawRecords(%d..%d) = %d records, %v", from, to, len(recs), err)
	}
	return recs
}

func TestArchiveDamagedSegmentSaysSo(t *testing.T) {
	ctx := context.Background()
	s := openBadger(t, testBadgerOptions(t.TempDir()))
	all := retentionStream(t, s, "a", 20, 20)
	if _, err := s.ArchiveUpTo(ctx, "a", 10); err != nil {
		t.Fatal(err)
	}
	segs, _ := s.ArchivedSegments(ctx, "a")
	b, err := os.ReadFile(segs[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(segs[0].Path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = s.Read(ctx, "a", 1, maxSeq, 0)
	if !errors.Is(err, ErrArchiveDamaged) || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Read over a damaged segment = %v, want ErrArchiveDamaged", err)
	}
	// The journal's live part is unaffected.
	wantSameEvents(t, "journal part", mustRead(t, s, "a", 11, maxSeq, 0), all[10:])
}

func TestSegmentDirNames(t *testing.T) {
	for _, stream := range []string{"agent-1", "a/b", "..", "x%y", "ünï", "A_b-9"} {
		name := segmentDirName(stream)
		if got, ok := streamOfDirName(name); !ok || got != stream {
			t.Errorf("streamOfDirName(%q) = %q, %v, want %q", name, got, ok, stream)
		}
		if filepath.Base(name) != name || name == "." || name == ".." || slices.Contains([]byte(name), '/') {
			t.Errorf("segmentDirName(%q) = %q is not a plain file name", stream, name)
		}
	}
}
