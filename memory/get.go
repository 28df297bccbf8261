package memory

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"
)

// Get bounds, in characters (Unicode code points).
const (
	DefaultMaxChars = 12000
	HardMaxChars    = 50000
)

// Get returns the exact original text of the record sourceRef names, cut at maxChars characters
// (0 means DefaultMaxChars) with Truncated set when it was cut. A ref this index did not issue is
// refused with ErrBadRef; maxChars outside 0..HardMaxChars with ErrMaxChars; a record deleted
// since the ref was issued gives ErrNotFound.
func (ix *Index) Get(sourceRef string, maxChars int) (Got, error) {
	if maxChars < 0 || maxChars > HardMaxChars {
		return Got{}, fmt.Errorf("%w, got %d", ErrMaxChars, maxChars)
	}
	if maxChars == 0 {
		maxChars = DefaultMaxChars
	}
	kind, key, err := ix.refs.open(sourceRef)
	if err != nil {
		return Got{}, err
	}
	var d storedDoc
	err = ix.withDB(context.Background(), func(db *sql.DB) error {
		var err error
		d, err = ix.loadDoc(context.Background(), db, `kind = ? AND key = ?`, string(kind), key)
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Got{}, fmt.Errorf("%w (%s %s)", ErrNotFound, kind, key)
	}
	if err != nil {
		return Got{}, fmt.Errorf("memory: get %s %s: %w", kind, key, err)
	}
	content, cut := truncate(d.Body, maxChars)
	return Got{Provenance: ix.provenance(d), Content: content, Truncated: cut}, nil
}

// truncate cuts s after n characters.
func truncate(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos], true
		}
		i++
	}
	return s, false
}

// storedDoc is a docs row.
type storedDoc struct {
	Doc
}

// loadDoc reads the one docs row matching where; sql.ErrNoRows when there is none.
func (ix *Index) loadDoc(ctx context.Context, db *sql.DB, where string, args ...any) (storedDoc, error) {
	var d storedDoc
	var kind, scope, meta string
	var updated int64
	st, err := ix.stmts.get(ctx, db, `SELECT kind, key, agent_id, scope_kind, workspace_id, source_path, b.title, b.body, updated_at, metadata FROM docs JOIN bodies b USING (id) WHERE `+where)
	if err != nil {
		return d, err
	}
	err = st.QueryRowContext(ctx, args...).
		Scan(&kind, &d.Key, &d.AgentID, &scope, &d.WorkspaceID, &d.SourcePath, &d.Title, &d.Body, &updated, &meta)
	if err != nil {
		return d, err
	}
	d.Kind, d.ScopeKind = Kind(kind), ScopeKind(scope)
	if updated != 0 {
		d.UpdatedAt = time.Unix(0, updated).UTC()
	}
	if meta != "{}" && meta != "" {
		if err := json.Unmarshal([]byte(meta), &d.Metadata); err != nil {
			return d, fmt.Errorf("decode metadata of %s/%s: %w", kind, d.Key, err)
		}
	}
	return d, nil
}

// provenance is what a Hit or Got says about d, with its source_ref.
func (ix *Index) provenance(d storedDoc) Provenance {
	return Provenance{
		Kind: d.Kind, SourceRef: ix.refs.sign(d.Kind, d.Key), ScopeKind: d.ScopeKind,
		WorkspaceID: d.WorkspaceID, AgentID: d.AgentID, SourcePath: d.SourcePath, Title: d.Title,
		UpdatedAt: d.UpdatedAt, Metadata: d.Metadata,
	}
}
