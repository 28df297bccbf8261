package persistence

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dgraph-io/badger/v4"

	"github.com/holon-actors/holon-actors/messages"
)

// The Badger store's archive: segments (archive_segment.go) under
// <Dir>/archive/<stream>/, and two marks per stream in Badger:
//
//   - the retention mark 'l' (badger_keys.go): every event at or below it
//     has left the journal, archived or deleted. A move writes and syncs
//     its segment first, then raises the mark in the same write as the
//     first deletion of the range; so a segment reaching above the mark is
//     one whose move never happened, and is rolled back (deleted), and a
//     journal record at or below the mark is one whose deletion was cut
//     short, and is finished (deleted). Reads take seqs at or below the
//     mark from the archive and the rest from the journal: never both.
//   - the purge mark 'p': archived events at or below it were deleted by
//     DeleteUpTo; segments wholly below it are removed.

const (
	// archiveDirName is the archive's directory in the data directory.
	archiveDirName = "archive"
	// A segment holds at most segmentMaxEvents events and about
	// segmentMaxBytes of records: a read of one archived event inflates
	// at most that much.
	segmentMaxEvents = 8192
	segmentMaxBytes  = 8 << 20

	kindPurge = 'p'
)

func purgeKey(stream string) []byte { return append([]byte{kindPurge}, stream...) }

var _ Archiver = (*BadgerStore)(nil)

// streamArchiveDir is stream's segment directory.
func (s *BadgerStore) streamArchiveDir(stream string) string {
	return filepath.Join(s.opts.Dir, archiveDirName, segmentDirName(stream))
}

// hasArchive reports whether stream has (or is getting) archive segments.
func (s *BadgerStore) hasArchive(stream string) bool {
	s.archMu.Lock()
	defer s.archMu.Unlock()
	_, ok := s.archived[stream]
	return ok
}

func (s *BadgerStore) markArchived(stream string) {
	s.archMu.Lock()
	defer s.archMu.Unlock()
	s.archived[stream] = struct{}{}
}

// openArchive finds the streams with archive segments and finishes or rolls
// back any move a crash interrupted.
func (s *BadgerStore) openArchive(ctx context.Context) error {
	ents, err := os.ReadDir(filepath.Join(s.opts.Dir, archiveDirName))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open archive: %w", err)
	}
	for _, e := range ents {
		stream, ok := streamOfDirName(e.Name())
		if !e.IsDir() || !ok {
			continue
		}
		s.markArchived(stream)
		if err := s.reconcileArchive(ctx, stream); err != nil {
			return err
		}
	}
	return nil
}

// streamOfDirName reverses segmentDirName.
func streamOfDirName(name string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if name[i] != '%' {
			b.WriteByte(name[i])
			continue
		}
		if i+2 >= len(name) {
			return "", false
		}
		c, err := strconv.ParseUint(name[i+1:i+3], 16, 8)
		if err != nil {
			return "", false
		}
		b.WriteByte(byte(c))
		i += 2
	}
	return b.String(), validateStream(b.String()) == nil
}

// archiveMarks reads stream's retention and purge marks.
func (s *BadgerStore) archiveMarks(stream string) (low, purge uint64, err error) {
	err = s.db.View(func(txn *badger.Txn) error {
		if low, err = getSeq(txn, lowKey(stream)); err != nil {
			return err
		}
		purge, err = getSeq(txn, purgeKey(stream))
		return err
	})
	if err != nil {
		return 0, 0, fmt.Errorf("archive marks of %s: %w", stream, err)
	}
	return low, purge, nil
}

// reconcileArchive makes stream's archive and journal agree with its
// marks: temporary files and segments above the retention mark (moves a
// crash cut before the journal changed) or wholly at or below the purge
// mark are removed, and journal records at or below the retention mark
// (deletions a crash cut short) are deleted. Callers hold moveMu or run
// before the store is shared.
func (s *BadgerStore) reconcileArchive(ctx context.Context, stream string) error {
	dir := s.streamArchiveDir(stream)
	low, purge, err := s.archiveMarks(stream)
	if err != nil {
		return err
	}
	tmps, _ := filepath.Glob(filepath.Join(dir, "*"+segmentTmp))
	removed := len(tmps) > 0
	for _, t := range tmps {
		if err := os.Remove(t); err != nil {
			return fmt.Errorf("reconcile archive of %s: %w", stream, err)
		}
	}
	segs, err := listSegments(dir)
	if err != nil {
		return fmt.Errorf("reconcile archive of %s: %w", stream, err)
	}
	for _, seg := range segs {
		if seg.To <= low && seg.To > purge {
			continue
		}
		if seg.To > low {
			s.log.Warn("archive segment rolled back: its move was interrupted before the journal changed",
				"stream", stream, "from", seg.From, "to", seg.To)
		}
		if err := os.Remove(seg.Path); err != nil {
			return fmt.Errorf("reconcile archive of %s: %w", stream, err)
		}
		removed = true
	}
	if removed {
		if err := syncPath(dir); err != nil {
			return fmt.Errorf("reconcile archive of %s: %w", stream, err)
		}
	}
	left, err := s.keysInRange(kindEvent, stream, 1, low)
	if err != nil || len(left) == 0 {
		return err
	}
	s.log.Warn("archive move finished: journal records it had moved were still present",
		"stream", stream, "records", len(left))
	return s.deleteKeys(ctx, stream, left)
}

// ArchiveUpTo implements Archiver. It moves at most segmentMaxEvents events
// per segment, one segment at a time; a quarantined stream is refused.
func (s *BadgerStore) ArchiveUpTo(ctx context.Context, stream string, upTo uint64) (int, error) {
	if err := s.readable(stream); err != nil {
		return 0, err
	}
	s.moveMu.Lock()
	defer s.moveMu.Unlock()
	s.markArchived(stream)
	if err := s.reconcileArchive(ctx, stream); err != nil {
		return 0, err
	}
	moved := 0
	for ctx.Err() == nil {
		n, err := s.archiveSegment(ctx, stream, upTo)
		moved += n
		if err != nil || n == 0 {
			return moved, err
		}
	}
	return moved, ctx.Err()
}

// archiveSegment moves the next segment's worth of stream's journal at or
// below upTo; it returns 0 when there is nothing left to move.
func (s *BadgerStore) archiveSegment(ctx context.Context, stream string, upTo uint64) (int, error) {
	low, err := s.loadLow(stream)
	if err != nil || low >= upTo {
		return 0, err
	}
	recs, err := s.rawRecords(stream, low+1, upTo)
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	last := recs[len(recs)-1].seq
	if _, err := writeSegment(s.streamArchiveDir(stream), low+1, last, recs); err != nil {
		return 0, fmt.Errorf("archive %s %d..%d: %w", stream, low+1, last, err)
	}
	keys := make([][]byte, len(recs))
	for i, r := range recs {
		keys[i] = eventKey(stream, r.seq)
	}
	// The mark rises with the first chunk of deletions: from then on the
	// segment, not the journal, holds low+1..last.
	if err := s.deleteKeysMarked(ctx, stream, keys, last); err != nil {
		return 0, fmt.Errorf("archive %s %d..%d: %w", stream, low+1, last, err)
	}
	return len(recs), nil
}

// rawRecords returns the stored records of stream from..to, checked, up to
// one segment's worth.
func (s *BadgerStore) rawRecords(stream string, from, to uint64) ([]segmentRecord, error) {
	var out []segmentRecord
	size := 0
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: streamPrefix(kindEvent, stream)})
		defer it.Close()
		for it.Seek(eventKey(stream, from)); it.Valid() && len(out) < segmentMaxEvents && size < segmentMaxBytes; it.Next() {
			seq := seqOf(it.Item().Key())
			if seq > to {
				break
			}
			rec, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			if _, err := openRecord(rec, seq); err != nil {
				return fmt.Errorf("seq %d: %w", seq, err)
			}
			out = append(out, segmentRecord{seq: seq, record: rec})
			size += len(rec)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("archive %s from %d: %w", stream, from, err)
	}
	return out, nil
}

// ArchivedSegments implements Archiver.
func (s *BadgerStore) ArchivedSegments(_ context.Context, stream string) ([]ArchiveSegment, error) {
	if err := validateStream(stream); err != nil {
		return nil, err
	}
	if err := s.usable(); err != nil {
		return nil, err
	}
	segs, err := listSegments(s.streamArchiveDir(stream))
	if err != nil {
		return nil, fmt.Errorf("archive segments of %s: %w", stream, err)
	}
	return segs, nil
}

// RetainedFrom implements Archiver: one past the retention mark.
func (s *BadgerStore) RetainedFrom(_ context.Context, stream string) (uint64, error) {
	if err := validateStream(stream); err != nil {
		return 0, err
	}
	if err := s.usable(); err != nil {
		return 0, err
	}
	low, err := s.loadLow(stream)
	return low + 1, err
}

// errPageFull stops a segment walk once a page is full.
var errPageFull = errors.New("page full")

// readArchived reads the archived part of a page: events from..to at or
// below the retention mark and above the purge mark, bounded like
// ReadPage. It returns them, their stored size and the retention mark it
// read, below which the journal part of the page must not look.
func (s *BadgerStore) readArchived(stream string, from, to uint64, limit, maxBytes int) ([]messages.Event, int64, uint64, error) {
	low, purge, err := s.archiveMarks(stream)
	if err != nil || from > low {
		return nil, 0, low, err
	}
	segs, err := listSegments(s.streamArchiveDir(stream))
	if err != nil {
		return nil, 0, low, fmt.Errorf("read archive of %s: %w", stream, err)
	}
	end := min(to, low)
	var out []messages.Event
	var size int64
	for _, seg := range segs {
		if seg.To < from || seg.From > end || seg.To <= purge {
			continue
		}
		err := readSegment(seg.Path, seg.From, seg.To, func(seq uint64, rec []byte) error {
			if seq < from || seq > end || seq <= purge {
				return nil
			}
			size += int64(len(rec))
			if limit > 0 && len(out) >= limit || maxBytes > 0 && size > int64(maxBytes) && len(out) > 0 {
				return errPageFull
			}
			ev, err := decodeRecord(rec, seq, stream)
			if err != nil {
				return fmt.Errorf("%w: %s seq %d: %w", ErrArchiveDamaged, seg.Path, seq, err)
			}
			out = append(out, ev)
			return nil
		})
		if errors.Is(err, errPageFull) {
			return out, size, low, nil
		}
		if err != nil {
			return nil, 0, low, fmt.Errorf("read archive of %s: %w", stream, err)
		}
	}
	return out, size, low, nil
}

// purgeArchive deletes stream's archived events at or below upTo: the purge
// mark first (durably), then the segments wholly below it.
func (s *BadgerStore) purgeArchive(ctx context.Context, stream string, upTo uint64) error {
	if !s.hasArchive(stream) {
		return nil
	}
	s.moveMu.Lock()
	defer s.moveMu.Unlock()
	_, purge, err := s.archiveMarks(stream)
	if err != nil || upTo <= purge {
		return err
	}
	if err := s.submit(ctx, &writeOp{stream: stream, sets: []kv{{purgeKey(stream), encodeSeq(upTo)}}}); err != nil {
		return fmt.Errorf("purge archive of %s up to %d: %w", stream, upTo, err)
	}
	return s.reconcileArchive(ctx, stream)
}

// CollectGarbage runs value-log garbage collection now, as the GC loop
// does on its schedule; retention calls it after a pass that freed space.
func (s *BadgerStore) CollectGarbage() {
	if s.usable() == nil {
		s.runGC()
	}
}
