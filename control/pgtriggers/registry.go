package pgtriggers

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// ErrBadKey is returned by Open when the database's trigger key is not
// control.TriggerKeyBytes long.
var ErrBadKey = errors.New("pgtriggers: the trigger key in the database has the wrong size")

// Registry is the trigger store of a cluster. It is safe for concurrent
// use, also by several processes on one database.
type Registry struct {
	pool *pgxpool.Pool
	key  []byte
}

var _ control.TriggerStore = (*Registry)(nil)

// Open returns the registry on pool's database, creating the trigger key
// when the database has none: nodes starting together agree on the first
// one written.
func Open(ctx context.Context, pool *pgxpool.Pool) (*Registry, error) {
	key := make([]byte, control.TriggerKeyBytes)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("pgtriggers: make the trigger key: %w", err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO holon_trigger_key (id, key) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, key); err != nil {
		return nil, fmt.Errorf("pgtriggers: store the trigger key: %w", err)
	}
	if err := pool.QueryRow(ctx, `SELECT key FROM holon_trigger_key WHERE id = 1`).Scan(&key); err != nil {
		return nil, fmt.Errorf("pgtriggers: read the trigger key: %w", err)
	}
	if len(key) != control.TriggerKeyBytes {
		return nil, fmt.Errorf("%w: %d bytes, want %d: delete the row of holon_trigger_key (every trigger URL changes)", ErrBadKey, len(key), control.TriggerKeyBytes)
	}
	return &Registry{pool: pool, key: key}, nil
}

// columns are a trigger record's, in the order scan reads them.
const columns = `id, agent, delivery_mode, status, token_sha256, created_at, revoked_at, trigger_count, last_triggered_at`

func scan(row pgx.Row) (control.Trigger, error) {
	var tr control.Trigger
	var count int64
	err := row.Scan(&tr.ID, &tr.AgentID, &tr.DeliveryMode, &tr.Status, &tr.TokenSHA256, &tr.CreatedAt,
		&tr.RevokedAt, &count, &tr.LastTriggeredAt)
	if err != nil {
		return control.Trigger{}, err
	}
	tr.TriggerCount = uint64(count)
	tr.CreatedAt = tr.CreatedAt.UTC()
	for _, t := range []*time.Time{tr.RevokedAt, tr.LastTriggeredAt} {
		if t != nil {
			*t = t.UTC()
		}
	}
	return tr, nil
}

// active is agent's active trigger; ok is false when it has none.
func (r *Registry) active(ctx context.Context, agent string) (tr control.Trigger, ok bool, err error) {
	tr, err = scan(r.pool.QueryRow(ctx, `SELECT `+columns+` FROM holon_triggers WHERE agent = $1 AND status = 'active'`, agent))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return control.Trigger{}, false, nil
	case err != nil:
		return control.Trigger{}, false, fmt.Errorf("pgtriggers: read %s's trigger: %w", agent, err)
	}
	return tr, true, nil
}

// ensureAttempts bounds Ensure's retries when other nodes create and
// revoke agent's trigger under it.
const ensureAttempts = 5

// Ensure returns agent's active trigger and its token, creating it if it
// has none: two nodes ensuring one agent's trigger at once return the
// same one.
func (r *Registry) Ensure(ctx context.Context, agent string, now time.Time) (control.Trigger, string, bool, error) {
	for range ensureAttempts {
		if tr, ok, err := r.active(ctx, agent); err != nil || ok {
			return tr, control.TriggerToken(r.key, tr.ID), false, err
		}
		id := messages.NewID("trg")
		token := control.TriggerToken(r.key, id)
		tr, err := scan(r.pool.QueryRow(ctx, `INSERT INTO holon_triggers (id, agent, delivery_mode, status, token_sha256, created_at)
			VALUES ($1, $2, 'wake_hint', 'active', $3, $4) ON CONFLICT DO NOTHING RETURNING `+columns,
			id, agent, control.TriggerTokenHash(token), now.UTC()))
		switch {
		case errors.Is(err, pgx.ErrNoRows): // another node made one meanwhile: read it
		case err != nil:
			return control.Trigger{}, "", false, fmt.Errorf("pgtriggers: create %s's trigger: %w", agent, err)
		default:
			return tr, token, true, nil
		}
	}
	return control.Trigger{}, "", false, fmt.Errorf("pgtriggers: %s's trigger changed under %d attempts to read it: retry", agent, ensureAttempts)
}

// Revoke revokes agent's active trigger; ok is false when it had none.
func (r *Registry) Revoke(ctx context.Context, agent string, now time.Time) (control.Trigger, bool, error) {
	tr, err := scan(r.pool.QueryRow(ctx, `UPDATE holon_triggers SET status = 'revoked', revoked_at = $2
		WHERE agent = $1 AND status = 'active' RETURNING `+columns, agent, now.UTC()))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return control.Trigger{}, false, nil
	case err != nil:
		return control.Trigger{}, false, fmt.Errorf("pgtriggers: revoke %s's trigger: %w", agent, err)
	}
	return tr, true, nil
}

// Lookup returns the active trigger of token; ok is false for an unknown
// or a revoked one.
func (r *Registry) Lookup(ctx context.Context, token string) (control.Trigger, bool, error) {
	tr, err := scan(r.pool.QueryRow(ctx, `SELECT `+columns+` FROM holon_triggers WHERE token_sha256 = $1 AND status = 'active'`,
		control.TriggerTokenHash(token)))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return control.Trigger{}, false, nil
	case err != nil:
		return control.Trigger{}, false, fmt.Errorf("pgtriggers: look a trigger up: %w", err)
	}
	return tr, true, nil
}
