package pgjournal

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/holon-actors/holon-actors/persistence"
)

// ErrNoJournal is returned by Inspect for a database no holon-actors
// journal was ever opened on.
var ErrNoJournal = errors.New("pgjournal: no journal in this database")

// Inspect checks the journal in the database at url without changing
// anything, as persistence.Inspect checks a Badger data directory: every
// record of every stream against its checksum and seq, the gaps between
// the first kept event and the highest seq, and the snapshots. It reads in
// one read-only snapshot transaction, so a runtime may be running on the
// database meanwhile. Report.Dir is the URL without its password.
func Inspect(ctx context.Context, url string) (persistence.Report, error) {
	r := emptyReport(url)
	if !IsURL(url) {
		return r, fmt.Errorf("pgjournal: URL %q must start with postgres:// or postgresql://", redact(url))
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return r, fmt.Errorf("pgjournal: connect to %s: %w", redact(url), err)
	}
	defer conn.Close(context.Background())
	err = pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var version int
		err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM holon_schema_version`).Scan(&version)
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "42P01" { // undefined_table
			return fmt.Errorf("%w %s: give the URL the runtime ran with (run --journal)", ErrNoJournal, redact(url))
		}
		if err != nil {
			return err
		}
		if version > SchemaVersion {
			return fmt.Errorf("%w: the database is at version %d, this build knows up to %d; run a newer holon-actors", ErrSchemaTooNew, version, SchemaVersion)
		}
		streams, err := inspectStreams(ctx, tx)
		if err != nil {
			return err
		}
		for _, sr := range streams {
			if err := inspectEvents(ctx, tx, &sr); err != nil {
				return err
			}
			if err := inspectSnapshots(ctx, tx, &sr); err != nil {
				return err
			}
			if len(sr.Gaps) > 0 || len(sr.Corrupt) > 0 {
				sr.Status = persistence.StreamDamaged
				sr.Repair = "not in place: restore the database from a PostgreSQL backup (doctor changes nothing)"
			}
			r.Streams = append(r.Streams, sr)
		}
		return nil
	})
	if err != nil {
		return r, fmt.Errorf("inspect the journal at %s: %w", redact(url), err)
	}
	r.Healthy = true
	for _, s := range r.Streams {
		r.Healthy = r.Healthy && s.Status == persistence.StreamOK
	}
	return r, nil
}

// emptyReport is the empty report of the journal at url.
func emptyReport(url string) persistence.Report {
	return persistence.Report{Dir: redact(url), Marks: "not kept: PostgreSQL keeps its own data whole"}
}

func inspectStreams(ctx context.Context, tx pgx.Tx) ([]persistence.StreamReport, error) {
	rows, err := tx.Query(ctx, `SELECT stream, highest FROM holon_streams ORDER BY stream COLLATE "C"`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []persistence.StreamReport
	for rows.Next() {
		var sr persistence.StreamReport
		var high int64
		if err := rows.Scan(&sr.Stream, &high); err != nil {
			return nil, err
		}
		sr.Highest, sr.Status = uint64(high), persistence.StreamOK
		out = append(out, sr)
	}
	return out, rows.Err()
}

// inspectEvents reads sr's events in seq order: the first kept one sets
// RetainedFrom, a seq skipped after it is a gap, as is a tail short of the
// highest seq; a record failing its checks is corrupt.
func inspectEvents(ctx context.Context, tx pgx.Tx, sr *persistence.StreamReport) error {
	rows, err := tx.Query(ctx, `SELECT seq, record FROM holon_events WHERE stream = $1 ORDER BY seq`, sr.Stream)
	if err != nil {
		return err
	}
	defer rows.Close()
	var next uint64 // the seq expected next; 0 before the first
	for rows.Next() {
		var seq int64
		var rec []byte
		if err := rows.Scan(&seq, &rec); err != nil {
			return err
		}
		at := uint64(seq)
		if next == 0 {
			sr.RetainedFrom = at
		} else if at > next {
			sr.Gaps = append(sr.Gaps, persistence.LostRange{Stream: sr.Stream, From: next, To: at - 1})
		}
		next = at + 1
		sr.Events++
		if _, err := persistence.DecodeRecord(rec, at); err != nil {
			sr.Corrupt = append(sr.Corrupt, at)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	switch {
	case next == 0:
		sr.RetainedFrom = sr.Highest + 1 // all deleted, or none written
	case next <= sr.Highest:
		sr.Gaps = append(sr.Gaps, persistence.LostRange{Stream: sr.Stream, From: next, To: sr.Highest})
	}
	return nil
}

func inspectSnapshots(ctx context.Context, tx pgx.Tx, sr *persistence.StreamReport) error {
	rows, err := tx.Query(ctx, `SELECT seq, record FROM holon_snapshots WHERE stream = $1 ORDER BY seq`, sr.Stream)
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
		sr.Snapshots++
		if _, err := persistence.DecodeSnapshot(sr.Stream, uint64(seq), rec); err != nil {
			sr.CorruptSnapshots = append(sr.CorruptSnapshots, uint64(seq))
			continue
		}
		sr.SnapshotSeq = uint64(seq)
	}
	return rows.Err()
}
