package pgmembers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrLeaseLost is returned by Renew when the member's lease lapsed before
// it was renewed: the other members have dropped it.
var ErrLeaseLost = errors.New("pgmembers: membership lease lost: the other nodes dropped this node (frozen or cut off from PostgreSQL longer than the lease); it must rejoin as a new member")

// Member is one node of the cluster as the lease table holds it.
type Member struct {
	ID    string
	Host  string
	Port  int
	Kinds []string
}

// schema is the lease table; lease_until is in the database's clock.
const schema = `CREATE TABLE IF NOT EXISTS cluster_members (
	cluster     text        NOT NULL,
	id          text        NOT NULL,
	host        text        NOT NULL,
	port        integer     NOT NULL,
	kinds       text[]      NOT NULL,
	lease_until timestamptz NOT NULL,
	joined_at   timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (cluster, id)
)`

// Registry is the lease table of one cluster. Safe for concurrent use.
type Registry struct {
	pool    *pgxpool.Pool
	cluster string
	lease   time.Duration
}

// Open creates the lease table if needed. lease is how long a member stays
// in the cluster without renewing.
func Open(ctx context.Context, pool *pgxpool.Pool, cluster string, lease time.Duration) (*Registry, error) {
	if cluster == "" {
		return nil, errors.New("pgmembers: empty cluster name")
	}
	if lease <= 0 {
		return nil, fmt.Errorf("pgmembers: lease %s: must be positive", lease)
	}
	if _, err := pool.Exec(ctx, schema); err != nil {
		return nil, fmt.Errorf("pgmembers: create lease table: %w", err)
	}
	return &Registry{pool: pool, cluster: cluster, lease: lease}, nil
}

func (r *Registry) interval() string { return fmt.Sprintf("%d milliseconds", r.lease.Milliseconds()) }

// Join registers m with a fresh lease. Joining again under an id whose
// lease lapsed is refused: that id has left for good.
func (r *Registry) Join(ctx context.Context, m Member) error {
	if m.ID == "" || m.Host == "" || m.Port <= 0 {
		return fmt.Errorf("pgmembers: join %+v: a member needs an id, a host and a port", m)
	}
	kinds := m.Kinds
	if kinds == nil {
		kinds = []string{}
	}
	tag, err := r.pool.Exec(ctx, `INSERT INTO cluster_members (cluster, id, host, port, kinds, lease_until)
		VALUES ($1, $2, $3, $4, $5, now() + $6::interval)
		ON CONFLICT (cluster, id) DO UPDATE SET host = excluded.host, port = excluded.port, kinds = excluded.kinds,
			lease_until = excluded.lease_until
		WHERE cluster_members.lease_until > now()`,
		r.cluster, m.ID, m.Host, m.Port, kinds, r.interval())
	if err != nil {
		return fmt.Errorf("pgmembers: join %s: %w", m.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("pgmembers: join %s: %w", m.ID, ErrLeaseLost)
	}
	return nil
}

// Renew extends id's lease; ErrLeaseLost when it had lapsed (or id left).
func (r *Registry) Renew(ctx context.Context, id string) error {
	tag, err := r.pool.Exec(ctx, `UPDATE cluster_members SET lease_until = now() + $3::interval
		WHERE cluster = $1 AND id = $2 AND lease_until > now()`, r.cluster, id, r.interval())
	if err != nil {
		return fmt.Errorf("pgmembers: renew %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("pgmembers: renew %s: %w", id, ErrLeaseLost)
	}
	return nil
}

// Leave ends id's lease now (a graceful shutdown); the row stays, lapsed,
// so the id cannot join again.
func (r *Registry) Leave(ctx context.Context, id string) error {
	_, err := r.pool.Exec(ctx, `UPDATE cluster_members SET lease_until = now() WHERE cluster = $1 AND id = $2`, r.cluster, id)
	if err != nil {
		return fmt.Errorf("pgmembers: leave %s: %w", id, err)
	}
	return nil
}

// Alive returns the members whose lease has not lapsed, by id. Rows lapsed
// for over an hour are deleted on the way.
func (r *Registry) Alive(ctx context.Context) ([]Member, error) {
	if _, err := r.pool.Exec(ctx, `DELETE FROM cluster_members WHERE cluster = $1 AND lease_until < now() - interval '1 hour'`,
		r.cluster); err != nil {
		return nil, fmt.Errorf("pgmembers: prune lapsed members: %w", err)
	}
	rows, err := r.pool.Query(ctx, `SELECT id, host, port, kinds FROM cluster_members
		WHERE cluster = $1 AND lease_until > now() ORDER BY id`, r.cluster)
	if err != nil {
		return nil, fmt.Errorf("pgmembers: list members: %w", err)
	}
	defer rows.Close()
	var out []Member
	for rows.Next() {
		var m Member
		if err := rows.Scan(&m.ID, &m.Host, &m.Port, &m.Kinds); err != nil {
			return nil, fmt.Errorf("pgmembers: list members: %w", err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("pgmembers: list members: %w", err)
	}
	return out, nil
}
