package persistence

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// SaveSnapshot implements SnapshotStore.
func (s *BadgerStore) SaveSnapshot(ctx context.Context, snap Snapshot) error {
	if err := validateStream(snap.Stream); err != nil {
		return err
	}
	if err := s.usable(); err != nil {
		return err
	}
	op := &writeOp{stream: snap.Stream, sets: []kv{{snapshotKey(snap.Stream, snap.Seq), encodeSnapshot(snap)}}}
	if err := s.submit(ctx, op); err != nil {
		return fmt.Errorf("save snapshot %s seq %d: %w", snap.Stream, snap.Seq, err)
	}
	return nil
}

// LoadSnapshot implements SnapshotStore. It walks from the newest snapshot
// at or below c.MaxSeq down, skipping (and counting) corrupt ones.
func (s *BadgerStore) LoadSnapshot(_ context.Context, stream string, c SnapshotCriteria) (Snapshot, bool, error) {
	if err := s.readable(stream); err != nil {
		return Snapshot{}, false, err
	}
	var found Snapshot
	var ok bool
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: streamPrefix(kindSnapshot, stream), Reverse: true})
		defer it.Close()
		for it.Seek(snapshotKey(stream, c.maxSeq())); it.Valid(); it.Next() {
			seq := seqOf(it.Item().Key())
			if seq < c.MinSeq {
				return nil
			}
			var snap Snapshot
			err := it.Item().Value(func(v []byte) error {
				var err error
				snap, err = decodeSnapshot(stream, seq, v)
				return err
			})
			if errors.Is(err, ErrCorrupt) || errors.Is(err, ErrUnsupportedRecord) {
				s.skippedSnapshots.Add(1)
				s.log.Warn("skipped unreadable snapshot", "stream", stream, "seq", seq, "reason", err.Error())
				continue
			}
			if err != nil {
				return err
			}
			if c.matches(snap.Seq, snap.Timestamp) {
				found, ok = snap, true
				return nil
			}
		}
		return nil
	})
	if err != nil {
		return Snapshot{}, false, fmt.Errorf("load snapshot %s: %w", stream, err)
	}
	return found, ok, nil
}

// DeleteSnapshot implements SnapshotStore.
func (s *BadgerStore) DeleteSnapshot(ctx context.Context, stream string, seq uint64) error {
	if err := validateStream(stream); err != nil {
		return err
	}
	if err := s.usable(); err != nil {
		return err
	}
	return s.submit(ctx, &writeOp{stream: stream, deletes: [][]byte{snapshotKey(stream, seq)}})
}

// DeleteSnapshots implements SnapshotStore. Snapshots that cannot be decoded
// are deleted when their seq matches, since their timestamp is unknowable.
// Criteria on seqs alone (the agent's AtOrBelow after each snapshot) read
// keys only: decoding every old snapshot, the whole state each, to learn a
// timestamp nobody asked about was a tenth of a long-lived agent's CPU.
func (s *BadgerStore) DeleteSnapshots(ctx context.Context, stream string, c SnapshotCriteria) error {
	if err := validateStream(stream); err != nil {
		return err
	}
	if err := s.usable(); err != nil {
		return err
	}
	bySeq := c.MinTimestamp.IsZero() && c.MaxTimestamp.IsZero()
	var keys [][]byte
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: streamPrefix(kindSnapshot, stream), PrefetchValues: !bySeq})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			seq := seqOf(it.Item().Key())
			if bySeq {
				if c.matches(seq, time.Time{}) {
					keys = append(keys, it.Item().KeyCopy(nil))
				}
				continue
			}
			match := false
			err := it.Item().Value(func(v []byte) error {
				snap, err := decodeSnapshot(stream, seq, v)
				match = c.matches(seq, snap.Timestamp)
				if err != nil {
					match = c.matches(seq, c.MinTimestamp)
				}
				return nil
			})
			if err != nil {
				return err
			}
			if match {
				keys = append(keys, it.Item().KeyCopy(nil))
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete snapshots of %s: %w", stream, err)
	}
	return s.deleteKeys(ctx, stream, keys)
}
