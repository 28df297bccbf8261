package pgjournal

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/holon-actors/holon-actors/persistence"
)

var _ persistence.HeaderStore = (*Store)(nil)

// headers writes published stream headers in the background, the newest
// of each stream only, many in one statement. A header is a cache of the
// journal, so its writes need no sync of their own: they commit with
// synchronous_commit off and become durable with the next synced commit.
type headers struct {
	mu sync.Mutex
	// pending are the headers published and not yet taken by a write;
	// writing those taken by the write under way.
	pending, writing map[string]persistence.Header
	kick             chan struct{} // buffered 1: something is pending
	stop             chan struct{} // closed by Close: write what is pending and end
}

func newHeaders() *headers {
	return &headers{pending: map[string]persistence.Header{}, kick: make(chan struct{}, 1), stop: make(chan struct{})}
}

// PublishHeader implements persistence.HeaderStore. The header is written
// in the background; a later header of the stream replaces one not yet
// written, and a header never replaces a newer one (a higher Seq) in the
// database. Its Due goes into the indexed column the due scanner reads.
func (s *Store) PublishHeader(stream string, h persistence.Header) error {
	if err := s.check(stream); err != nil {
		return err
	}
	h.Data = append([]byte(nil), h.Data...)
	s.headers.mu.Lock()
	s.headers.pending[stream] = h
	s.headers.mu.Unlock()
	select {
	case s.headers.kick <- struct{}{}:
	default:
	}
	return nil
}

// LoadHeader implements persistence.HeaderStore: a header this process
// published and has not written yet, else the database's.
func (s *Store) LoadHeader(ctx context.Context, stream string) (persistence.Header, bool, error) {
	if err := s.check(stream); err != nil {
		return persistence.Header{}, false, err
	}
	s.headers.mu.Lock()
	h, ok := s.headers.pending[stream]
	if !ok {
		h, ok = s.headers.writing[stream]
	}
	s.headers.mu.Unlock()
	if ok {
		return h, true, nil
	}
	var seq int64
	var due pgtype.Timestamptz
	err := s.pool.QueryRow(ctx, `SELECT seq, due, data FROM holon_headers WHERE stream = $1`, stream).Scan(&seq, &due, &h.Data)
	if errors.Is(err, pgx.ErrNoRows) {
		return persistence.Header{}, false, nil
	}
	if err != nil {
		return persistence.Header{}, false, s.wrap("load header of "+stream, err)
	}
	h.Seq = uint64(seq)
	if due.Valid {
		h.Due = due.Time
	}
	return h, true, nil
}

// runHeaders writes pending headers until Close, then writes the last ones.
func (s *Store) runHeaders() {
	for {
		select {
		case <-s.headers.kick:
			s.writeHeaders()
		case <-s.headers.stop:
			s.writeHeaders()
			return
		}
	}
}

// headersSQL upserts headers ($1 stream, $2 seq, $3 due, $4 data), each
// only over an older one.
const headersSQL = `INSERT INTO holon_headers AS h (stream, seq, due, data)
SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[], $4::bytea[])
ON CONFLICT (stream) DO UPDATE SET seq = EXCLUDED.seq, due = EXCLUDED.due, data = EXCLUDED.data
WHERE h.seq <= EXCLUDED.seq`

// writeHeaders writes the pending headers in one transaction. A failed
// write is logged and dropped: a missing header only costs a replay.
func (s *Store) writeHeaders() {
	s.headers.mu.Lock()
	batch := s.headers.pending
	s.headers.pending, s.headers.writing = map[string]persistence.Header{}, batch
	s.headers.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	defer func() {
		s.headers.mu.Lock()
		s.headers.writing = nil
		s.headers.mu.Unlock()
	}()
	streams := make([]string, 0, len(batch))
	seqs := make([]int64, 0, len(batch))
	dues := make([]pgtype.Timestamptz, 0, len(batch))
	datas := make([][]byte, 0, len(batch))
	for stream, h := range batch {
		streams = append(streams, stream)
		seqs = append(seqs, int64(h.Seq))
		dues = append(dues, pgtype.Timestamptz{Time: h.Due, Valid: !h.Due.IsZero()})
		datas = append(datas, h.Data)
	}
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	defer cancel()
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL synchronous_commit = off`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, headersSQL, streams, seqs, dues, datas)
		return err
	})
	if err != nil {
		s.log.Warn().Err(fmt.Errorf("write %d stream headers: %w", len(batch), err)).Msg("stream headers not written")
	}
}
