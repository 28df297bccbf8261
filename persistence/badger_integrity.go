package persistence

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/dgraph-io/badger/v4"
)

// checkIntegrity runs at Open, after the corrupt tails are handled: it
// compares every stream with its integrity marks (badger_marks.go) and
// checks that the first and last events the marks call for are present.
// Missing events quarantine their stream and are listed in Health.Lost;
// a stream's highest seq is raised back to its mark, so lost seqs are never
// reused. Then the marks log is rewritten from what was checked. Gaps in the
// middle of a stream are found by Read (and by Inspect).
func (s *BadgerStore) checkIntegrity(mr marksRead) error {
	streams, err := s.integrityStreams(mr)
	if err != nil {
		return err
	}
	s.noteMarks(mr, len(streams) > 0)
	for _, w := range s.torn {
		s.log.Warn("the engine dropped a torn write-ahead log tail", "file", w.File, "offset", w.Offset, "bytes", w.Bytes)
	}
	state := make(map[string]streamMark, len(streams))
	checks := make(map[string]streamCheck)
	bounds, err := s.scanBounds() // badger_open_checks.go
	if err != nil {
		return err
	}
	marks, found := make([]streamMark, len(streams)), make([]streamCheck, len(streams))
	err = eachStreamPart(s.db, len(streams), func(txn *badger.Txn, i int) error {
		marks[i], found[i] = s.checkStream(txn, streams[i], bounds[streams[i]], mr)
		return nil
	})
	s.tailChecked = nil // only true of the store as recover found it
	if err != nil {
		return err
	}
	for i, stream := range streams {
		state[stream] = marks[i]
		if c := found[i]; c.cutFrom > 0 || len(c.lost) > 0 {
			checks[stream] = c
		}
	}
	for _, stream := range streams {
		c, m := checks[stream], state[stream]
		if c.cutFrom > 0 {
			if err := s.dropCut(stream, c.cutFrom, m.highest); err != nil {
				return err
			}
		}
		if len(c.lost) > 0 {
			if err := s.quarantineLoss(stream, m.highest, c.lost); err != nil {
				return err
			}
		}
	}
	l, err := writeMarksSnapshot(s.opts.Dir, state)
	if err != nil {
		return err
	}
	// The committer reads these from its next cycle on: the channel send
	// of that cycle's first op orders these writes before it.
	s.marks, s.marksState = l, state
	return nil
}

// noteMarks reports a missing or torn marks log; a missing one is news
// only when the store holds streams.
func (s *BadgerStore) noteMarks(mr marksRead, streams bool) {
	switch {
	case !mr.found && streams:
		s.note("integrity marks were missing (first start with them, or the file was lost): " +
			"they were rebuilt from the store as it is, so losses before now cannot be detected")
	case mr.tornBytes > 0:
		s.note(fmt.Sprintf("integrity marks had a torn tail of %d bytes (a write cut by a crash), ignored", mr.tornBytes))
	}
}

func (s *BadgerStore) note(msg string) {
	s.mu.Lock()
	s.notes = append(s.notes, msg)
	s.mu.Unlock()
	s.log.Warn(msg)
}

// integrityStreams lists the streams Badger knows and those only the
// marks remember, sorted.
func (s *BadgerStore) integrityStreams(mr marksRead) ([]string, error) {
	known, err := s.Streams(context.Background())
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(known))
	for _, stream := range known {
		seen[stream] = true
	}
	for stream := range mr.marks {
		if !seen[stream] {
			known = append(known, stream)
		}
	}
	sort.Strings(known)
	return known, nil
}

// streamCheck is what checkStream found missing: lost runs, and the
// seqs from cutFrom up to the mark that the last commit before a crash
// claimed but Badger never got (see marksRead.prev).
type streamCheck struct {
	lost    []LostRange
	cutFrom uint64
}

// checkStream returns the marks stream must meet and what is missing.
// b is the stream's bounds as the store holds them (scanBounds).
func (s *BadgerStore) checkStream(txn *badger.Txn, stream string, b streamBounds, mr marksRead) (streamMark, streamCheck) {
	var c streamCheck
	m := streamMark{highest: b.highest, low: b.low}
	mark, ok := mr.marks[stream]
	if ok && mark.highest > m.highest {
		if prev, last := mr.prev[stream]; last && m.highest >= prev.highest {
			c.cutFrom = m.highest + 1
		}
		m.highest = mark.highest
	}
	m.low = max(m.low, mark.low)
	if _, q := s.quarantined(stream); q || m.highest <= m.low {
		return m, c
	}
	top := m.highest
	if c.cutFrom > 0 {
		top = c.cutFrom - 1 // the cut seqs are dropped, not lost
	}
	if top > m.low {
		checked, ok := s.tailChecked[stream]
		c.lost = missingEndsKnown(txn, stream, streamMark{highest: top, low: m.low}, ok && checked == top)
	}
	return m, c
}

// dropCut records seqs from..to of stream, claimed by the last commit's
// marks but never in Badger, as dropped tail records: they were never
// acknowledged, like a torn tail, and are reported the same way; their
// seqs are not reused.
func (s *BadgerStore) dropCut(stream string, from, to uint64) error {
	const reason = "in the last commit before a crash, whose marks were synced but whose events were not: " +
		"most likely never acknowledged"
	op := &writeOp{stream: stream, sets: []kv{{highestKey(stream), encodeSeq(to)}}}
	for seq := from; seq <= to; seq++ {
		op.sets = append(op.sets, kv{droppedKey(stream, seq), nil})
	}
	if err := s.submit(context.Background(), op); err != nil {
		return fmt.Errorf("record the cut commit of %s: %w", stream, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for seq := from; seq <= to; seq++ {
		s.dropped = append(s.dropped, DroppedRecord{Stream: stream, Seq: seq, Reason: reason})
	}
	s.log.Warn("journal events of the last commit before a crash are missing; recorded as dropped",
		"stream", stream, "from", from, "to", to)
	return nil
}

// missingEnds returns the runs missing at the head (after the retention
// mark) and at the tail (up to the highest seq) of stream: the ends a lost
// table or WAL file takes. A seq moved aside as a corrupt tail is present.
func missingEnds(txn *badger.Txn, stream string, m streamMark) []LostRange {
	return missingEndsKnown(txn, stream, m, false)
}

// missingEndsKnown is missingEnds where lastKnown says the event at
// m.highest was just read whole (the tail check at open): one lookup
// fewer in the common case.
func missingEndsKnown(txn *badger.Txn, stream string, m streamMark, lastKnown bool) []LostRange {
	if present(txn, stream, m.low+1) && (lastKnown || present(txn, stream, m.highest)) {
		return nil // the common case, two lookups (one when lastKnown)
	}
	first, ok := firstPresent(txn, stream, m.low+1)
	if !ok || first > m.highest {
		return []LostRange{{Stream: stream, From: m.low + 1, To: m.highest}}
	}
	var lost []LostRange
	if first > m.low+1 {
		lost = append(lost, LostRange{Stream: stream, From: m.low + 1, To: first - 1})
	}
	if last := lastPresent(txn, stream, m.highest); last < m.highest {
		lost = append(lost, LostRange{Stream: stream, From: last + 1, To: m.highest})
	}
	return lost
}

// present reports whether seq of stream is stored as an event or a
// dropped record.
func present(txn *badger.Txn, stream string, seq uint64) bool {
	for _, key := range [][]byte{eventKey(stream, seq), droppedKey(stream, seq)} {
		if _, err := txn.Get(key); err == nil {
			return true
		}
	}
	return false
}

// firstPresent is the lowest seq >= from stored as an event or a dropped
// record.
func firstPresent(txn *badger.Txn, stream string, from uint64) (uint64, bool) {
	var best uint64
	found := false
	for _, kind := range []byte{kindEvent, kindDropped} {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: streamPrefix(kind, stream)})
		it.Seek(seqKey(kind, stream, from))
		if it.Valid() {
			if seq := seqOf(it.Item().Key()); !found || seq < best {
				best, found = seq, true
			}
		}
		it.Close()
	}
	return best, found
}

// lastPresent is the highest seq <= to stored as an event or a dropped
// record, 0 for none.
func lastPresent(txn *badger.Txn, stream string, to uint64) uint64 {
	var best uint64
	for _, kind := range []byte{kindEvent, kindDropped} {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: streamPrefix(kind, stream), Reverse: true})
		it.Seek(seqKey(kind, stream, to))
		if it.Valid() {
			best = max(best, seqOf(it.Item().Key()))
		}
		it.Close()
	}
	return best
}

// quarantineLoss durably quarantines stream for its lost runs, raising its
// highest seq back to highest, and records them in Health.
func (s *BadgerStore) quarantineLoss(stream string, highest uint64, lost []LostRange) error {
	q := Quarantine{Stream: stream, Seq: lost[0].From, At: s.opts.Now().UTC(),
		Reason: lossReason(lost)}
	b, err := json.Marshal(q)
	if err != nil {
		return err
	}
	op := &writeOp{stream: stream, quarantine: &q,
		sets: []kv{{highestKey(stream), encodeSeq(highest)}, {quarantineKey(stream), b}}}
	if err := s.submit(context.Background(), op); err != nil {
		return fmt.Errorf("quarantine %s for lost events: %w", stream, err)
	}
	s.mu.Lock()
	s.lost = append(s.lost, lost...)
	s.mu.Unlock()
	s.log.Error("journal stream lost events; quarantined", "stream", stream, "reason", q.Reason)
	return nil
}

func lossReason(lost []LostRange) string {
	r := "events"
	for i, l := range lost {
		if i > 0 {
			r += ","
		}
		r += fmt.Sprintf(" %d..%d", l.From, l.To)
	}
	return r + " are missing from the data files (a lost or truncated MANIFEST, WAL or table file): " +
		"the history is incomplete; restore the data directory from a backup, or archive the agent"
}
