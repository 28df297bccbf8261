package due

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jonboulle/clockwork"
	"github.com/rs/zerolog"
)

// WakeFunc activates agent agentID: on this node, or through the cluster
// on the node that owns it. It returns once the agent is running (it then
// fires what is due by itself); an error leaves the agent to the next scan,
// except ErrNoAgent.
type WakeFunc func(ctx context.Context, agentID string) error

// ErrNoAgent is what a WakeFunc returns (wrapped) for an agent that will
// never run again (deleted): the scanner clears its header's due time, so
// it is not found again until a newer header says otherwise.
var ErrNoAgent = errors.New("due scanner: no such agent to wake")

// Config configures a Scanner.
type Config struct {
	// Node names the claimer in the claims table (this node's name).
	Node string
	// Wake activates a due agent.
	Wake WakeFunc
	// Lease is how long a claim keeps other scanners off an agent: longer
	// than a wake takes, short enough that a claimer's death delays a fire
	// by no more than that.
	Lease time.Duration
	// Interval is the time between scans while nothing is due sooner.
	Interval time.Duration
	// Batch bounds the agents one scan claims.
	Batch int
	// Clock tells the time that due times and claims are compared with;
	// the real clock when nil.
	Clock clockwork.Clock
	Log   zerolog.Logger
}

// Defaults of Config's zero fields.
const (
	DefaultLease    = 30 * time.Second
	DefaultInterval = time.Second
	DefaultBatch    = 256
)

// ErrConfig wraps the errors of a Config that cannot work.
var ErrConfig = errors.New("due scanner: bad configuration")

func (c *Config) fill() error {
	if c.Node == "" {
		return fmt.Errorf("%w: no node name: give each node scanning the database its own", ErrConfig)
	}
	if c.Wake == nil {
		return fmt.Errorf("%w: no Wake function", ErrConfig)
	}
	if c.Lease < 0 || c.Interval < 0 || c.Batch < 0 {
		return fmt.Errorf("%w: negative lease %v, interval %v or batch %d", ErrConfig, c.Lease, c.Interval, c.Batch)
	}
	if c.Lease == 0 {
		c.Lease = DefaultLease
	}
	if c.Interval == 0 {
		c.Interval = DefaultInterval
	}
	if c.Batch == 0 {
		c.Batch = DefaultBatch
	}
	if c.Clock == nil {
		c.Clock = clockwork.NewRealClock()
	}
	return nil
}

// Scanner claims and wakes due agents. Scan runs one pass; Run scans until
// its context ends.
type Scanner struct {
	pool *pgxpool.Pool
	cfg  Config
}

// New returns a scanner over pool, a database pgjournal migrated.
func New(pool *pgxpool.Pool, cfg Config) (*Scanner, error) {
	if pool == nil {
		return nil, fmt.Errorf("%w: no database", ErrConfig)
	}
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	return &Scanner{pool: pool, cfg: cfg}, nil
}

// claimSQL claims up to $2 due agents for claimer $3 until $1 + $4 ($1 is
// now): those whose current header ($1 at or after its due, its seq the
// stream's highest) has no live claim for that header. The header rows are
// locked (SKIP LOCKED: a scanner does not wait for another's pass), and
// the claim's upsert writes only over a claim that expired or names an
// older header, so of scanners racing for an agent exactly one gets it.
const claimSQL = `WITH due AS (
	SELECT h.stream, h.seq, h.due
	FROM holon_headers h
	JOIN holon_streams s ON s.stream = h.stream AND s.highest = h.seq
	LEFT JOIN holon_due_claims c ON c.stream = h.stream
	WHERE h.due IS NOT NULL AND h.due <= $1
	  AND (c.stream IS NULL OR c.expires <= $1 OR c.seq <> h.seq)
	ORDER BY h.due
	LIMIT $2
	FOR UPDATE OF h SKIP LOCKED
)
INSERT INTO holon_due_claims AS c (stream, seq, claimer, expires)
SELECT stream, seq, $3, $1 + $4::interval FROM due
ON CONFLICT (stream) DO UPDATE SET seq = EXCLUDED.seq, claimer = EXCLUDED.claimer, expires = EXCLUDED.expires
WHERE c.expires <= $1 OR c.seq <> EXCLUDED.seq
RETURNING stream`

// Claim claims the agents due now for this node, at most Batch of them,
// without waking them.
func (s *Scanner) Claim(ctx context.Context) ([]string, error) {
	now := s.cfg.Clock.Now()
	rows, err := s.pool.Query(ctx, claimSQL, now, s.cfg.Batch, s.cfg.Node, s.cfg.Lease)
	if err != nil {
		return nil, fmt.Errorf("due scanner: claim due agents: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("due scanner: claim due agents: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("due scanner: claim due agents: %w", err)
	}
	return ids, nil
}

// Scan claims the agents due now and wakes each, in due order. An agent
// whose wake failed is released for the next scan (of any node); woken
// lists those woken. It stops early when ctx ends.
func (s *Scanner) Scan(ctx context.Context) (woken []string, err error) {
	ids, err := s.Claim(ctx)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if ctx.Err() != nil {
			return woken, ctx.Err()
		}
		wctx, cancel := context.WithTimeout(ctx, s.cfg.Lease)
		werr := s.cfg.Wake(wctx, id)
		cancel()
		if werr == nil {
			woken = append(woken, id)
			continue
		}
		if errors.Is(werr, ErrNoAgent) {
			s.cfg.Log.Info().Err(werr).Str("agent_id", id).Msg("due agent is gone; its due time is cleared")
			if _, err := s.pool.Exec(ctx, `UPDATE holon_headers SET due = NULL
				WHERE stream = $1 AND seq = (SELECT seq FROM holon_due_claims WHERE stream = $1 AND claimer = $2)`, id, s.cfg.Node); err != nil {
				s.cfg.Log.Warn().Err(err).Str("agent_id", id).Msg("due time of a gone agent not cleared")
			}
			continue
		}
		s.cfg.Log.Warn().Err(werr).Str("agent_id", id).Msg("due agent not woken; released for the next scan")
		if _, err := s.pool.Exec(ctx, `DELETE FROM holon_due_claims WHERE stream = $1 AND claimer = $2`, id, s.cfg.Node); err != nil {
			s.cfg.Log.Warn().Err(err).Str("agent_id", id).Msg("due claim not released; it expires")
		}
	}
	return woken, nil
}

// Run scans every Interval (at once again after a full batch) until ctx
// ends. A failed scan is logged and retried on the next tick.
func (s *Scanner) Run(ctx context.Context) {
	for {
		woken, err := s.Scan(ctx)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			s.cfg.Log.Warn().Err(err).Msg("due scan failed")
		}
		if err == nil && len(woken) >= s.cfg.Batch {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-s.cfg.Clock.After(s.cfg.Interval):
		}
	}
}
