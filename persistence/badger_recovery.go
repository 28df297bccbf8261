package persistence

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"
)

// maxTailDrop bounds how many corrupt records Open drops from one stream's
// tail. More than that is not a torn tail but damage: the stream is
// quarantined instead.
const maxTailDrop = 16

// corruptTail is what Open found at one stream's tail.
type corruptTail struct {
	stream     string
	drops      []droppedRaw
	quarantine *Quarantine
	// presentAtHighest: the record at the stream's highest seq is there
	// and whole.
	presentAtHighest bool
}

type droppedRaw struct {
	seq    uint64
	raw    []byte
	reason string
}

// recover runs at Open: it loads quarantines, then checks every stream's
// newest records, moves corrupt ones aside (their seqs are not reused) and
// records them in Health.
func (s *BadgerStore) recover() error {
	if err := s.loadQuarantines(); err != nil {
		return err
	}
	tails, err := s.findCorruptTails()
	if err != nil {
		return err
	}
	ctx := context.Background()
	for _, t := range tails {
		if t.quarantine != nil {
			if err := s.quarantine(ctx, t.stream, t.quarantine.Seq, t.quarantine.Reason); err != nil {
				return err
			}
			continue
		}
		if err := s.dropTail(ctx, t); err != nil {
			return err
		}
	}
	return nil
}

func (s *BadgerStore) loadQuarantines() error {
	return s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kindQuarantine}, PrefetchValues: true})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			var q Quarantine
			err := it.Item().Value(func(v []byte) error { return json.Unmarshal(v, &q) })
			if err != nil || q.Stream == "" {
				// An unreadable quarantine record still quarantines.
				q = Quarantine{Stream: string(it.Item().Key()[1:]), Reason: "quarantine record unreadable"}
			}
			s.quarantines[q.Stream] = q
		}
		return nil
	})
}

func (s *BadgerStore) findCorruptTails() ([]corruptTail, error) {
	type head struct {
		stream  string
		highest uint64
	}
	var heads []head
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kindHighest}, PrefetchValues: true})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			stream := string(it.Item().Key()[1:])
			if _, ok := s.quarantines[stream]; ok {
				continue
			}
			var highest uint64
			if err := it.Item().Value(func(v []byte) error { highest = seqOf(v); return nil }); err != nil {
				return err
			}
			heads = append(heads, head{stream, highest})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("check stream tails: %w", err)
	}
	found := make([]corruptTail, len(heads))
	// checked: the stream's newest event was read whole and decoded.
	checked := make([]bool, len(heads))
	err = eachStreamPart(s.db, len(heads), func(txn *badger.Txn, i int) error { // badger_open_checks.go
		t, err := checkTail(txn, heads[i].stream, heads[i].highest)
		found[i], checked[i] = t, err == nil && heads[i].highest > 0 && len(t.drops) == 0 && t.quarantine == nil && t.presentAtHighest
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("check stream tails: %w", err)
	}
	s.tailChecked = make(map[string]uint64, len(heads))
	var tails []corruptTail
	for i, t := range found {
		if checked[i] {
			s.tailChecked[t.stream] = heads[i].highest
		}
		if len(t.drops) > 0 || t.quarantine != nil {
			tails = append(tails, t)
		}
	}
	return tails, nil
}

// checkTail walks back from a stream's highest seq while records are
// corrupt. A missing record (deleted by retention, or dropped before) ends
// the walk: there is nothing newer to check.
func checkTail(txn *badger.Txn, stream string, highest uint64) (corruptTail, error) {
	t := corruptTail{stream: stream}
	for seq := highest; seq > 0; seq-- {
		item, err := txn.Get(eventKey(stream, seq))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return t, nil
		}
		if err != nil {
			return t, err
		}
		raw, err := item.ValueCopy(nil)
		if err != nil {
			return t, err
		}
		_, derr := DecodeRecord(raw, seq)
		if derr == nil || !errors.Is(derr, ErrCorrupt) {
			t.presentAtHighest = seq == highest
			return t, nil
		}
		if len(t.drops) == maxTailDrop {
			t.drops = nil
			t.quarantine = &Quarantine{Stream: stream, Seq: seq,
				Reason: fmt.Sprintf("more than %d corrupt records at the tail: %v", maxTailDrop, derr)}
			return t, nil
		}
		t.drops = append(t.drops, droppedRaw{seq: seq, raw: raw, reason: derr.Error()})
	}
	return t, nil
}

// dropTail moves a stream's corrupt tail records to the 'x' keyspace in one
// durable write and reports them.
func (s *BadgerStore) dropTail(ctx context.Context, t corruptTail) error {
	op := &writeOp{stream: t.stream}
	for _, d := range t.drops {
		op.sets = append(op.sets, kv{droppedKey(t.stream, d.seq), d.raw})
		op.deletes = append(op.deletes, eventKey(t.stream, d.seq))
	}
	if err := s.submit(ctx, op); err != nil {
		return fmt.Errorf("drop corrupt tail of %s: %w", t.stream, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range t.drops {
		s.dropped = append(s.dropped, DroppedRecord{Stream: t.stream, Seq: d.seq, Reason: d.reason})
		s.log.Warn("dropped corrupt journal tail record", "stream", t.stream, "seq", d.seq, "reason", d.reason)
	}
	return nil
}

// quarantine durably marks stream as quarantined at seq.
func (s *BadgerStore) quarantine(ctx context.Context, stream string, seq uint64, reason string) error {
	q := Quarantine{Stream: stream, Seq: seq, Reason: reason, At: s.opts.Now().UTC()}
	b, err := json.Marshal(q)
	if err != nil {
		return err
	}
	op := &writeOp{stream: stream, sets: []kv{{quarantineKey(stream), b}}, quarantine: &q}
	if err := s.submit(ctx, op); err != nil {
		return err
	}
	s.log.Error("journal stream quarantined", "stream", stream, "seq", seq, "reason", reason)
	return nil
}

func (s *BadgerStore) quarantined(stream string) (Quarantine, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.quarantines[stream]
	return q, ok
}

func (s *BadgerStore) setQuarantined(q Quarantine) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quarantines[q.Stream] = q
}
