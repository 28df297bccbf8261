package pgjournal

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/persistence"
)

// SaveSnapshot implements persistence.SnapshotStore.
func (s *Store) SaveSnapshot(ctx context.Context, snap persistence.Snapshot) error {
	if err := s.check(snap.Stream); err != nil {
		return err
	}
	if len(snap.Data) > s.cfg.MaxBatchBytes {
		return fmt.Errorf("save snapshot %s seq %d (%d bytes): over the %d-byte limit: %w", snap.Stream, snap.Seq, len(snap.Data), s.cfg.MaxBatchBytes, persistence.ErrBatchTooLarge)
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO holon_snapshots (stream, seq, record) VALUES ($1, $2, $3)
		ON CONFLICT (stream, seq) DO UPDATE SET record = EXCLUDED.record`,
		snap.Stream, dbSeq(snap.Seq), persistence.EncodeSnapshot(snap))
	return s.wrap(fmt.Sprintf("save snapshot %s seq %d", snap.Stream, snap.Seq), err)
}

// LoadSnapshot implements persistence.SnapshotStore. It walks from the
// newest snapshot in c's seq bounds down, skipping (and counting) the ones
// that fail their checksum, like the Badger store.
func (s *Store) LoadSnapshot(ctx context.Context, stream string, c persistence.SnapshotCriteria) (persistence.Snapshot, bool, error) {
	if err := s.check(stream); err != nil {
		return persistence.Snapshot{}, false, err
	}
	var found persistence.Snapshot
	ok := false
	err := s.eachSnapshot(ctx, stream, c, "DESC", func(seq uint64, rec []byte) bool {
		snap, err := persistence.DecodeSnapshot(stream, seq, rec)
		if err != nil {
			s.skippedSnapshots.Add(1)
			s.log.Warn().Str("stream", stream).Uint64("seq", seq).Err(err).Msg("skipped unreadable snapshot")
			return true
		}
		if c.Matches(snap.Seq, snap.Timestamp) {
			found, ok = snap, true
			return false
		}
		return true
	})
	if err != nil {
		return persistence.Snapshot{}, false, s.wrap("load snapshot "+stream, err)
	}
	return found, ok, nil
}

// eachSnapshot calls f with the snapshot records of stream whose seq is in
// c's bounds, in seq order dir, until f returns false.
func (s *Store) eachSnapshot(ctx context.Context, stream string, c persistence.SnapshotCriteria, dir string, f func(seq uint64, rec []byte) bool) error {
	rows, err := s.pool.Query(ctx, `SELECT seq, record FROM holon_snapshots WHERE stream = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq `+dir,
		stream, dbSeq(c.MinSeq), dbSeq(c.MaxSeqBound()))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var seq int64
		var rec []byte
		if err := rows.Scan(&seq, &rec); err != nil {
			return err
		}
		if !f(uint64(seq), rec) {
			return nil
		}
	}
	return rows.Err()
}

// DeleteSnapshot implements persistence.SnapshotStore.
func (s *Store) DeleteSnapshot(ctx context.Context, stream string, seq uint64) error {
	if err := s.check(stream); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `DELETE FROM holon_snapshots WHERE stream = $1 AND seq = $2`, stream, dbSeq(seq))
	return s.wrap(fmt.Sprintf("delete snapshot %s seq %d", stream, seq), err)
}

// DeleteSnapshots implements persistence.SnapshotStore. The timestamp
// bounds are inside the records, so it reads the candidates in the seq
// bounds. Like the Badger store, it deletes corrupt ones in the seq bounds,
// since their timestamp is unknowable.
func (s *Store) DeleteSnapshots(ctx context.Context, stream string, c persistence.SnapshotCriteria) error {
	if err := s.check(stream); err != nil {
		return err
	}
	var seqs []int64
	err := s.eachSnapshot(ctx, stream, c, "ASC", func(seq uint64, rec []byte) bool {
		if snap, err := persistence.DecodeSnapshot(stream, seq, rec); err != nil || c.Matches(snap.Seq, snap.Timestamp) {
			seqs = append(seqs, int64(seq))
		}
		return true
	})
	if err == nil && len(seqs) > 0 {
		_, err = s.pool.Exec(ctx, `DELETE FROM holon_snapshots WHERE stream = $1 AND seq = ANY($2)`, stream, seqs)
	}
	return s.wrap("delete snapshots of "+stream, err)
}
