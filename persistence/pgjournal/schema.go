package pgjournal

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// migrations are the schema's versions in order: migrations[i] takes the
// database from version i to i+1. Append new versions; never edit a
// released one, since databases out there were made by it.
var migrations = []string{
	// 1: streams with their highest seq (never lowered), events and
	// snapshots as sealed records. The C collation makes stream order
	// byte order, the order Streams promises.
	`CREATE TABLE holon_streams (
		stream  text COLLATE "C" PRIMARY KEY,
		highest bigint NOT NULL CHECK (highest >= 0)
	);
	CREATE TABLE holon_events (
		stream text COLLATE "C" NOT NULL,
		seq    bigint NOT NULL,
		record bytea NOT NULL,
		PRIMARY KEY (stream, seq)
	);
	CREATE TABLE holon_snapshots (
		stream text COLLATE "C" NOT NULL,
		seq    bigint NOT NULL,
		record bytea NOT NULL,
		PRIMARY KEY (stream, seq)
	);`,
	// 2: stream headers with their due time, indexed for the due scanner,
	// and the scanner's claims: who wakes a due stream, until when.
	`CREATE TABLE holon_headers (
		stream text COLLATE "C" PRIMARY KEY,
		seq    bigint NOT NULL,
		due    timestamptz,
		data   bytea NOT NULL
	);
	CREATE INDEX holon_headers_due ON holon_headers (due) WHERE due IS NOT NULL;
	CREATE TABLE holon_due_claims (
		stream  text COLLATE "C" PRIMARY KEY,
		seq     bigint NOT NULL,
		claimer text NOT NULL,
		expires timestamptz NOT NULL
	);`,
	// 3: the cluster's external triggers (control/pgtriggers): the key
	// their tokens are derived from (one row, made once by whichever node
	// comes first), their records, found by the token's SHA-256 and at
	// most one active per agent, and the ids of their latest deliveries,
	// whose primary key admits a repeated delivery once.
	`CREATE TABLE holon_trigger_key (
		id  integer PRIMARY KEY CHECK (id = 1),
		key bytea NOT NULL
	);
	CREATE TABLE holon_triggers (
		id                text COLLATE "C" PRIMARY KEY,
		agent             text COLLATE "C" NOT NULL,
		delivery_mode     text NOT NULL,
		status            text NOT NULL,
		token_sha256      text NOT NULL UNIQUE,
		created_at        timestamptz NOT NULL,
		revoked_at        timestamptz,
		trigger_count     bigint NOT NULL DEFAULT 0,
		last_triggered_at timestamptz
	);
	CREATE UNIQUE INDEX holon_triggers_active ON holon_triggers (agent) WHERE status = 'active';
	CREATE TABLE holon_trigger_deliveries (
		trigger_id text COLLATE "C" NOT NULL REFERENCES holon_triggers (id),
		delivery   text NOT NULL,
		seq        bigserial NOT NULL,
		PRIMARY KEY (trigger_id, delivery)
	);
	CREATE INDEX holon_trigger_deliveries_seq ON holon_trigger_deliveries (trigger_id, seq);`,
}

// SchemaVersion is the schema version this build migrates databases to.
var SchemaVersion = len(migrations)

// migrateLock is the advisory lock key that serializes migrations of one
// database among processes opening it at once.
const migrateLock = 0x686f6c6f6e // "holon"

// migrate brings the database to SchemaVersion in one transaction, under an
// advisory lock. A database at a newer version is refused and left as is.
func migrate(ctx context.Context, pool *pgxpool.Pool) (from int, err error) {
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS holon_schema_version (version integer NOT NULL)`); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM holon_schema_version`).Scan(&from); err != nil {
			return err
		}
		if from > SchemaVersion {
			return fmt.Errorf("%w: the database is at version %d, this build knows up to %d; run a newer holon-actors", ErrSchemaTooNew, from, SchemaVersion)
		}
		for v := from; v < SchemaVersion; v++ {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrate to version %d: %w", v+1, err)
			}
		}
		if from == SchemaVersion {
			return nil
		}
		if _, err := tx.Exec(ctx, `DELETE FROM holon_schema_version`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO holon_schema_version (version) VALUES ($1)`, SchemaVersion)
		return err
	})
	if err != nil {
		return from, fmt.Errorf("pgjournal: schema: %w", err)
	}
	return from, nil
}
