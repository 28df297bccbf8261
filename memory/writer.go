package memory

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// writer writes records inside one transaction with prepared statements.
type writer struct {
	// fresh, during a rebuild into an empty file, holds the keys written so far: a record not in
	// it cannot be in the file, so upsert skips looking for the old row.
	fresh                                                        map[string]bool
	tx                                                           *sql.Tx
	find, delDoc, delBody, delFTS, insDoc, insBody, insFTS, meta *sql.Stmt
}

// prepareWriter prepares the statements on tx.
func prepareWriter(ctx context.Context, tx *sql.Tx) (*writer, error) {
	w := &writer{tx: tx}
	for _, s := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.find, `SELECT id FROM docs WHERE kind = ? AND key = ?`},
		{&w.delDoc, `DELETE FROM docs WHERE id = ?`},
		{&w.delBody, `DELETE FROM bodies WHERE id = ?`},
		{&w.delFTS, `DELETE FROM fts WHERE rowid = ?`},
		{&w.insDoc, `INSERT INTO docs(kind, key, agent_id, scope_kind, workspace_id, source_path, updated_at, metadata) VALUES(?,?,?,?,?,?,?,?)`},
		{&w.insBody, `INSERT INTO bodies(id, title, body) VALUES(?,?,?)`},
		{&w.insFTS, `INSERT INTO fts(rowid, title, body) VALUES(?,?,?)`},
		{&w.meta, `INSERT INTO meta(k, v) VALUES(?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`},
	} {
		st, err := tx.PrepareContext(ctx, s.sql)
		if err != nil {
			w.close()
			return nil, fmt.Errorf("prepare: %w", err)
		}
		*s.dst = st
	}
	return w, nil
}

// close closes the prepared statements.
func (w *writer) close() {
	for _, st := range []*sql.Stmt{w.find, w.delDoc, w.delBody, w.delFTS, w.insDoc, w.insBody, w.insFTS, w.meta} {
		if st != nil {
			_ = st.Close()
		}
	}
}

// setMeta stores one meta value.
func (w *writer) setMeta(ctx context.Context, k, v string) error {
	if _, err := w.meta.ExecContext(ctx, k, v); err != nil {
		return fmt.Errorf("write meta %s: %w", k, err)
	}
	return nil
}

// remove deletes the record kind/key and its projection; absent is not an error.
func (w *writer) remove(ctx context.Context, kind Kind, key string) error {
	var id int64
	switch err := w.find.QueryRowContext(ctx, string(kind), key).Scan(&id); err {
	case nil:
	case sql.ErrNoRows:
		return nil
	default:
		return fmt.Errorf("find %s/%s: %w", kind, key, err)
	}
	if _, err := w.delFTS.ExecContext(ctx, id); err != nil {
		return fmt.Errorf("delete %s/%s: %w", kind, key, err)
	}
	if _, err := w.delDoc.ExecContext(ctx, id); err != nil {
		return fmt.Errorf("delete %s/%s: %w", kind, key, err)
	}
	if _, err := w.delBody.ExecContext(ctx, id); err != nil {
		return fmt.Errorf("delete %s/%s: %w", kind, key, err)
	}
	return nil
}

// upsert replaces the record d.Kind/d.Key with d. The new row gets the next rowid, so rowid order
// is the order records were last written. For the memory files it also stores the body's hash,
// which CheckFiles compares with the file on disk.
func (w *writer) upsert(ctx context.Context, d Doc) error {
	return w.upsertProjected(ctx, projected{doc: d, title: project(d.Title), body: project(d.Body)})
}

// upsertProjected is upsert of a record already projected.
func (w *writer) upsertProjected(ctx context.Context, p projected) error {
	d := p.doc
	k := string(d.Kind) + "\x00" + d.Key
	if w.fresh == nil || w.fresh[k] {
		if err := w.remove(ctx, d.Kind, d.Key); err != nil {
			return err
		}
	}
	if w.fresh != nil {
		w.fresh[k] = true
	}
	meta := "{}"
	if len(d.Metadata) > 0 {
		b, err := json.Marshal(d.Metadata)
		if err != nil {
			return fmt.Errorf("encode metadata of %s/%s: %w", d.Kind, d.Key, err)
		}
		meta = string(b)
	}
	res, err := w.insDoc.ExecContext(ctx, string(d.Kind), d.Key, d.AgentID, string(d.ScopeKind), d.WorkspaceID,
		d.SourcePath, d.UpdatedAt.UnixNano(), meta)
	if err != nil {
		return fmt.Errorf("insert %s/%s: %w", d.Kind, d.Key, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("insert %s/%s: %w", d.Kind, d.Key, err)
	}
	if _, err := w.insBody.ExecContext(ctx, id, d.Title, d.Body); err != nil {
		return fmt.Errorf("insert %s/%s: %w", d.Kind, d.Key, err)
	}
	if _, err := w.insFTS.ExecContext(ctx, id, p.title, p.body); err != nil {
		return fmt.Errorf("index %s/%s: %w", d.Kind, d.Key, err)
	}
	if isFileKind(d.Kind) {
		return w.setMeta(ctx, "hash:"+string(d.Kind), bodyHash(d.Body))
	}
	return nil
}

// optimize merges the full-text index's segments into one, which makes searches cheaper.
func (w *writer) optimize(ctx context.Context) error {
	if _, err := w.tx.ExecContext(ctx, `INSERT INTO fts(fts) VALUES('optimize')`); err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	return nil
}

// bodyHash is the hex SHA-256 of a body.
func bodyHash(body string) string {
	h := sha256.Sum256([]byte(body))
	return hex.EncodeToString(h[:])
}
