package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Rebuild replaces the index with one built from src (the Options' Source when src is nil) and
// clears the dirty marker. The new index is built beside the old one and renamed over it, so a
// crash mid-rebuild leaves the old file (and the marker) in place. Searches wait while it runs.
func (ix *Index) Rebuild(ctx context.Context, src Source) error {
	if src == nil {
		src = ix.opts.Source
	}
	return ix.rebuild(ctx, src, "asked")
}

// rebuild takes the index exclusively and rebuilds it.
func (ix *Index) rebuild(ctx context.Context, src Source, reason string) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return ErrClosed
	}
	return ix.rebuildLocked(ctx, src, reason)
}

// rebuildLocked builds memory.sqlite3.tmp from src, swaps it in and reopens. The caller holds mu
// (or is Open, before the Index is shared).
func (ix *Index) rebuildLocked(ctx context.Context, src Source, reason string) error {
	start := time.Now()
	path := filepath.Join(ix.dir, dbFile)
	tmp := path + ".tmp"
	removeDB(tmp)
	n, err := ix.build(ctx, tmp, src)
	if err != nil {
		removeDB(tmp)
		return fmt.Errorf("memory: rebuild index: %w", err)
	}
	ix.stmts.reset()
	if ix.db != nil {
		_ = ix.db.Close()
		ix.db = nil
	}
	removeDB(path)
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("memory: rebuild index: %w", err)
	}
	db, err := openDB(path)
	if err != nil {
		return fmt.Errorf("memory: open rebuilt index: %w", err)
	}
	ix.db = db
	if err := os.Remove(filepath.Join(ix.dir, dirtyFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("memory: clear dirty marker: %w", err)
	}
	ix.log.Info().Str("agent_id", ix.opts.AgentID).Str("reason", reason).Int("records", n).
		Dur("elapsed", time.Since(start)).Msg("memory index rebuilt")
	return nil
}

// build writes a fresh index file at path holding every record of src, in one transaction.
func (ix *Index) build(ctx context.Context, path string, src Source) (int, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)&_pragma=cache_size(-65536)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return 0, fmt.Errorf("create schema: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback() }()
	w, err := prepareWriter(ctx, tx)
	if err != nil {
		return 0, err
	}
	defer w.close()
	w.fresh = map[string]bool{}
	// No merging while the records stream in, and 16 MiB of terms gathered in memory before each
	// segment is written: optimize merges the few segments once at the end.
	for _, cfg := range []string{`('automerge', 0)`, `('crisismerge', 64)`, `('hashsize', 16777216)`} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO fts(fts, rank) VALUES`+cfg); err != nil {
			return 0, fmt.Errorf("configure index: %w", err)
		}
	}
	if err := w.setMeta(ctx, "schema", schemaVersion); err != nil {
		return 0, err
	}
	if err := w.setMeta(ctx, "agent", ix.opts.AgentID); err != nil {
		return 0, err
	}
	n := 0
	if src != nil {
		skip := func(err error) {
			ix.log.Warn().Str("agent_id", ix.opts.AgentID).Err(err).Msg("memory record skipped")
		}
		err = streamProjected(ctx, src, ix.opts.AgentID, skip, func(p projected) error {
			n++
			return w.upsertProjected(ctx, p)
		})
		if err != nil {
			return 0, fmt.Errorf("read source: %w", err)
		}
	}
	if err := w.optimize(ctx); err != nil {
		return 0, err
	}
	for _, cfg := range []string{`('automerge', 4)`, `('crisismerge', 16)`, `('hashsize', 1048576)`} {
		if _, err := tx.ExecContext(ctx, `INSERT INTO fts(fts, rank) VALUES`+cfg); err != nil {
			return 0, fmt.Errorf("configure index: %w", err)
		}
	}
	return n, tx.Commit()
}

// removeDB removes an index file and its WAL companions.
func removeDB(path string) {
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		_ = os.Remove(p)
	}
}
