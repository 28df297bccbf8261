package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/persistence/pgjournal"
)

// journalOpenTimeout bounds connecting to the PostgreSQL journal and
// migrating its schema at start.
const journalOpenTimeout = 30 * time.Second

// openPostgres opens the PostgreSQL journal at Config.Journal. The home's
// data directory is still locked, so one runtime owns the home (its
// sockets, agent homes and artifacts) whichever journal it uses.
func (n *Node) openPostgres() error {
	if !pgjournal.IsURL(n.cfg.Journal) {
		return invalid(fmt.Errorf("--journal must be a postgres://USER@HOST:PORT/DB URL (leave it out for the journal in %s)", persistence.DataDir(n.cfg.Home)))
	}
	ran := previousRun(n.cfg.Home)
	unlock, err := persistence.LockDataDir(persistence.DataDir(n.cfg.Home))
	if err != nil {
		return err
	}
	cfg := pgjournal.DefaultConfig(n.cfg.Journal)
	cfg.Log = n.cfg.Log.With().Str("component", "journal").Logger()
	cfg.Redact = n.cfg.Secrets.RedactBytes
	ctx, cancel := context.WithTimeout(context.Background(), journalOpenTimeout)
	defer cancel()
	store, err := pgjournal.Open(ctx, cfg)
	if err != nil {
		_ = unlock()
		return fmt.Errorf("open the journal: %w", err)
	}
	n.store = homeLockedStore{Store: store, unlock: unlock}
	n.noteUncleanExit(ran)
	return nil
}

// homeLockedStore is a database journal that releases the home's lock
// when it closes.
type homeLockedStore struct {
	*pgjournal.Store
	unlock func() error
}

func (s homeLockedStore) Close() error {
	return errors.Join(s.Store.Close(), s.unlock())
}
