package memory

import (
	"context"
	"database/sql"
	"fmt"
)

// Upsert writes docs to the index in one transaction, each replacing the record with its Kind and
// Key. A doc without Kind or Key, for another agent, or with an unknown scope is refused with
// ErrInvalidDoc and nothing is written.
func (ix *Index) Upsert(docs ...Doc) error {
	for i := range docs {
		if err := docs[i].validate(ix.opts.AgentID); err != nil {
			return err
		}
	}
	return ix.write(func(ctx context.Context, w *writer) error {
		for _, d := range docs {
			if err := w.upsert(ctx, d); err != nil {
				return err
			}
		}
		return nil
	})
}

// Delete removes the record kind/key; a record that is not there is not an error.
func (ix *Index) Delete(kind Kind, key string) error {
	return ix.write(func(ctx context.Context, w *writer) error { return w.remove(ctx, kind, key) })
}

// write runs fn in one write transaction.
func (ix *Index) write(fn func(context.Context, *writer) error) error {
	ctx := context.Background()
	err := ix.withDB(ctx, func(db *sql.DB) error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback() }()
		w, err := prepareWriter(ctx, tx)
		if err != nil {
			return err
		}
		defer w.close()
		if err := fn(ctx, w); err != nil {
			return err
		}
		return tx.Commit()
	})
	if err != nil {
		return fmt.Errorf("memory: write index: %w", err)
	}
	return nil
}
