package pgjournal

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// readChunk is how many rows one query of a read fetches, so a size-bound
// page never pulls a long stream's every row over the wire.
const readChunk = 256

// dbSeq clamps a seq to what a bigint column holds.
func dbSeq(seq uint64) int64 {
	if seq > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(seq)
}

// Read implements persistence.Journal.
func (s *Store) Read(ctx context.Context, stream string, from, to uint64, limit int) ([]messages.Event, error) {
	return s.ReadPage(ctx, stream, from, to, limit, 0)
}

// ReadPage implements persistence.Journal. A record that fails its
// checksum or seq check ends the read with an error wrapping
// persistence.ErrCorrupt, after the events before it.
func (s *Store) ReadPage(ctx context.Context, stream string, from, to uint64, limit, maxBytes int) ([]messages.Event, error) {
	if err := s.check(stream); err != nil {
		return nil, err
	}
	var out []messages.Event
	size := 0
	for next := from; next <= to; {
		n := readChunk
		if limit > 0 {
			n = min(n, limit-len(out))
		}
		rows, err := s.pool.Query(ctx, `SELECT seq, record FROM holon_events WHERE stream = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq LIMIT $4`,
			stream, dbSeq(next), dbSeq(to), n)
		if err != nil {
			return out, s.wrap("read "+stream, err)
		}
		got, full := 0, false
		for rows.Next() {
			var seq int64
			var rec []byte
			if err := rows.Scan(&seq, &rec); err != nil {
				rows.Close()
				return out, s.wrap("read "+stream, err)
			}
			got++
			next = uint64(seq) + 1
			size += len(rec)
			if maxBytes > 0 && size > maxBytes && len(out) > 0 {
				full = true
				break
			}
			ev, err := persistence.DecodeRecord(rec, uint64(seq))
			if err != nil {
				rows.Close()
				return out, fmt.Errorf("read %s seq %d: %w", stream, seq, err)
			}
			out = append(out, ev)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return out, s.wrap("read "+stream, err)
		}
		if full || got < n || limit > 0 && len(out) >= limit || next == 0 {
			break
		}
	}
	return out, nil
}

// HighestSeq implements persistence.Journal.
func (s *Store) HighestSeq(ctx context.Context, stream string) (uint64, error) {
	if err := s.check(stream); err != nil {
		return 0, err
	}
	var high int64
	err := s.pool.QueryRow(ctx, `SELECT coalesce((SELECT highest FROM holon_streams WHERE stream = $1), 0)`, stream).Scan(&high)
	if err != nil {
		return 0, s.wrap("highest seq of "+stream, err)
	}
	return uint64(high), nil
}

// DeleteUpTo implements persistence.Journal; the stream's highest seq is
// another table's row and stays.
func (s *Store) DeleteUpTo(ctx context.Context, stream string, upTo uint64) error {
	if err := s.check(stream); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `DELETE FROM holon_events WHERE stream = $1 AND seq <= $2`, stream, dbSeq(upTo))
	return s.wrap(fmt.Sprintf("delete %s up to %d", stream, upTo), err)
}

// Streams implements persistence.Journal.
func (s *Store) Streams(ctx context.Context) ([]string, error) {
	if s.closed.Load() {
		return nil, persistence.ErrClosed
	}
	rows, err := s.pool.Query(ctx, `SELECT stream FROM holon_streams`)
	if err != nil {
		return nil, s.wrap("list streams", err)
	}
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return nil, s.wrap("list streams", err)
		}
		out = append(out, name)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("list streams", err)
	}
	slices.Sort(out) // byte order, whatever the column's collation
	return out, nil
}

// Subscribe implements persistence.Journal: the subscription is signalled
// after appends to stream by this store and, through LISTEN, by every
// other store on the database.
func (s *Store) Subscribe(stream string) *persistence.Subscription { return s.hub.Subscribe(stream) }
