package memory

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// writer writes records inside one transaction with prepared statements.
type writer struct {
	tx                                         *sql.Tx
	find, delDoc, delFTS, insDoc, insFTS, meta *sql.Stmt
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
		{&w.delFTS, `DELETE FROM fts WHERE rowid = ?`},
		{&w.insDoc, `INSERT INTO docs(kind, key, agent_id, scope_kind, workspace_id, source_path, title, body, updated_at, metadata) VALUES(?,?,?,?,?,?,?,?,?,?)`},
		{&w.insFTS, `INSERT INTO fts(rowid, title, body, scope) VALUES(?,?,?,?)`},
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
	for _, st := range []*sql.Stmt{w.find, w.delDoc, w.delFTS, w.insDoc, w.insFTS, w.meta} {
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
	return nil
}

// upsert replaces the record d.Kind/d.Key with d. The new row gets the next rowid, so rowid order
// is the order records were last written. For the memory files it also stores the body's hash,
// which CheckFiles compares with the file on disk.
func (w *writer) upsert(ctx context.Context, d Doc) error {
	if err := w.remove(ctx, d.Kind, d.Key); err != nil {
		return err
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
		d.SourcePath, d.Title, d.Body, d.UpdatedAt.UnixNano(), meta)
	if err != nil {
		return fmt.Errorf("insert %s/%s: %w", d.Kind, d.Key, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("insert %s/%s: %w", d.Kind, d.Key, err)
	}
	if _, err := w.insFTS.ExecContext(ctx, id, project(d.Title), project(d.Body), scopeTokens(d)); err != nil {
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

// scopeTokens is the scope column of a record: its scope (agent or a workspace's hashed id) and
// its kind, as single tokens the search filter matches.
func scopeTokens(d Doc) string {
	s := agentScopeToken
	if d.ScopeKind == ScopeWorkspace {
		s = workspaceToken(d.WorkspaceID)
	}
	return s + " " + kindToken(d.Kind)
}

// agentScopeToken marks agent-scoped records in the scope column.
const agentScopeToken = "sagent"

// workspaceToken is a workspace id as one alphanumeric token, whatever characters the id holds.
func workspaceToken(id string) string {
	h := sha256.Sum256([]byte(id))
	return "w" + hex.EncodeToString(h[:10])
}

// kindToken is a kind as one alphanumeric token.
func kindToken(k Kind) string {
	return "k" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, strings.ToLower(string(k)))
}

// bodyHash is the hex SHA-256 of a body.
func bodyHash(body string) string {
	h := sha256.Sum256([]byte(body))
	return hex.EncodeToString(h[:])
}
