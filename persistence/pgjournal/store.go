package pgjournal

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/persistence"
)

// Store is the persistence.Store on PostgreSQL. Open returns it; Close it
// when done.
type Store struct {
	cfg  Config
	pool *pgxpool.Pool
	log  zerolog.Logger
	hub  persistence.Notifier

	// mu guards closed against appends being queued: an append queues
	// under the read lock, Close sets closed under the write lock and only
	// then closes the committers' queues.
	mu     sync.RWMutex
	closed atomic.Bool

	committers []*committer
	headers    *headers
	wg         sync.WaitGroup // the committers and the listener
	stopListen context.CancelFunc

	skippedSnapshots atomic.Int64
	stats            stats
	listenerDown     atomic.Pointer[string] // why the listener is reconnecting; nil while it listens
}

var _ persistence.Store = (*Store)(nil)

// Open connects to the database of cfg.URL, migrates its schema to this
// build's version and starts the committers and the listener. A database
// migrated by a newer build is refused with ErrSchemaTooNew.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	pcfg, err := pgxpool.ParseConfig(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("pgjournal: parse URL %s: %w", redact(cfg.URL), err)
	}
	pcfg.MaxConns = int32(cfg.MaxConns)
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("pgjournal: connect to %s: %w", redact(cfg.URL), err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("pgjournal: connect to %s: %w", redact(cfg.URL), err)
	}
	from, err := migrate(ctx, pool)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s := &Store{cfg: cfg, pool: pool, log: cfg.Log, headers: newHeaders()}
	if from != SchemaVersion {
		s.log.Info().Int("from", from).Int("to", SchemaVersion).Msg("journal schema migrated")
	}
	if err := s.startListener(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	for range cfg.Committers {
		c := newCommitter(s)
		s.committers = append(s.committers, c)
		s.wg.Go(c.run)
	}
	s.wg.Go(s.runHeaders)
	return s, nil
}

// committerOf is the committer that owns stream: always the same one, so a
// stream's appends commit in the order they were queued.
func (s *Store) committerOf(stream string) *committer {
	h := fnv.New32a()
	_, _ = h.Write([]byte(stream))
	return s.committers[h.Sum32()%uint32(len(s.committers))]
}

// Close waits for the appends in flight, stops the committers and the
// listener and closes the connections. A second Close returns ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed.Load() {
		s.mu.Unlock()
		return persistence.ErrClosed
	}
	s.closed.Store(true)
	s.mu.Unlock()
	for _, c := range s.committers {
		close(c.in)
	}
	s.stopListen()
	close(s.headers.stop)
	s.wg.Wait()
	s.pool.Close()
	return nil
}

// Health implements persistence.Store. PostgreSQL keeps its own data
// whole; the store reports the snapshots it skipped as corrupt and whether
// it currently misses other processes' append signals.
func (s *Store) Health() persistence.Health {
	h := persistence.Health{SkippedSnapshots: int(s.skippedSnapshots.Load())}
	if why := s.listenerDown.Load(); why != nil {
		h.Notes = append(h.Notes, "journal subscriptions are reconnecting to PostgreSQL: "+*why)
	}
	return h
}

// check validates stream and fails on a closed store.
func (s *Store) check(stream string) error {
	if err := persistence.ValidateStream(stream); err != nil {
		return err
	}
	if s.closed.Load() {
		return persistence.ErrClosed
	}
	return nil
}

// wrap turns an error of an operation that raced Close into ErrClosed.
func (s *Store) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if s.closed.Load() && !errors.Is(err, persistence.ErrClosed) {
		return fmt.Errorf("%s: %w", op, persistence.ErrClosed)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// Pool is the store's connection pool, for the due scanner (package due)
// working on the same database. Close the store only after its users.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }
