package memory

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// Search bounds.
const (
	DefaultLimit = 10  // results when Query.Limit is 0
	MaxLimit     = 100 // the most results one Search returns
)

// commonDocs is the document count above which a term is treated as common: a query with any
// rarer term ranks only the records holding its rare terms, and a query of common terms only
// ranks the most recently written records holding all of them. This keeps the cost of one Search
// bounded however large the index grows (ranking every record that holds "the" is what is slow).
const commonDocs = 4000

// recentCandidates is how many of the newest matching records a common-terms query ranks.
const recentCandidates = 400

// Query is one search.
type Query struct {
	Text          string
	WorkspaceID   string // the active workspace; "" searches agent-scoped records only
	AllWorkspaces bool   // every record, whatever its workspace
	Kinds         []Kind // only these kinds; empty means all
	Limit         int    // 1..MaxLimit; 0 means DefaultLimit
}

// Search returns the records best matching q.Text within q's scope, best first. Agent-scoped
// records are always in scope. A query without words is refused with ErrEmptyQuery, a bad limit
// with ErrLimit, an unknown kind with ErrKind.
func (ix *Index) Search(ctx context.Context, q Query) ([]Hit, error) {
	limit, err := q.limit()
	if err != nil {
		return nil, err
	}
	for _, k := range q.Kinds {
		if !slices.Contains(Kinds, k) {
			return nil, fmt.Errorf("%w %q; want one of %s", ErrKind, k, kindList())
		}
	}
	terms := queryTerms(q.Text)
	if len(terms) == 0 {
		return nil, ErrEmptyQuery
	}
	var hits []Hit
	err = ix.withDB(ctx, func(db *sql.DB) error {
		var err error
		hits, err = ix.search(ctx, db, q, terms, limit)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("memory: search: %w", err)
	}
	return hits, nil
}

// limit validates q.Limit.
func (q Query) limit() (int, error) {
	switch {
	case q.Limit == 0:
		return DefaultLimit, nil
	case q.Limit < 0 || q.Limit > MaxLimit:
		return 0, fmt.Errorf("%w, got %d", ErrLimit, q.Limit)
	}
	return q.Limit, nil
}

// search runs the query on db.
func (ix *Index) search(ctx context.Context, db *sql.DB, q Query, terms []term, limit int) ([]Hit, error) {
	var rare, found []term
	for _, t := range terms {
		n, err := docCount(ctx, db, t)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			found = append(found, t)
		}
		if n > 0 && n <= commonDocs {
			rare = append(rare, t)
		}
	}
	if len(found) == 0 {
		return nil, nil
	}
	filter := scopeFilter(q)
	if len(rare) > 0 {
		hits, err := ix.ranked(ctx, db, rankedSQL, matchExpr(rare, " OR ", filter), limit, terms)
		if err != nil || len(hits) > 0 {
			return hits, err
		}
	}
	hits, err := ix.ranked(ctx, db, recentSQL, matchExpr(found, " AND ", filter), limit, terms)
	if err != nil || len(hits) > 0 {
		return hits, err
	}
	return ix.ranked(ctx, db, recentSQL, matchExpr(found, " OR ", filter), limit, terms)
}

// Ranking: title matches weigh 4, body 1, the scope column nothing. bm25 is lower for better
// matches, so the score is its negation.
const (
	rankedSQL = `SELECT rowid, -bm25(fts, 4.0, 1.0, 0.0) AS s FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, 4.0, 1.0, 0.0) LIMIT ?`
	recentSQL = `SELECT rowid, s FROM (SELECT rowid, -bm25(fts, 4.0, 1.0, 0.0) AS s FROM fts WHERE fts MATCH ? ORDER BY rowid DESC LIMIT ?) ORDER BY s DESC LIMIT ?`
)

// ranked runs one of the ranking statements and loads the records it names.
func (ix *Index) ranked(ctx context.Context, db *sql.DB, stmt, match string, limit int, terms []term) ([]Hit, error) {
	args := []any{match, limit}
	if stmt == recentSQL {
		args = []any{match, recentCandidates, limit}
	}
	rows, err := db.QueryContext(ctx, stmt, args...)
	if err != nil {
		return nil, err
	}
	type scored struct {
		id    int64
		score float64
	}
	var ids []scored
	for rows.Next() {
		var s scored
		if err := rows.Scan(&s.id, &s.score); err != nil {
			_ = rows.Close()
			return nil, err
		}
		ids = append(ids, s)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(ids))
	for _, s := range ids {
		d, err := loadDoc(ctx, db, `id = ?`, s.id)
		if err != nil {
			return nil, err
		}
		hits = append(hits, Hit{Provenance: ix.provenance(d), Snippet: snippet(d.Body, terms), Score: s.score})
	}
	return hits, nil
}

// matchExpr joins the terms' expressions with op over the title and body columns and adds the
// scope filter.
func matchExpr(terms []term, op, filter string) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = t.match()
	}
	expr := "{title body} : (" + strings.Join(parts, op) + ")"
	if filter != "" {
		expr += " AND " + filter
	}
	return expr
}

// scopeFilter is the FTS expression restricting a search to q's workspaces and kinds.
func scopeFilter(q Query) string {
	var f []string
	if !q.AllWorkspaces {
		s := agentScopeToken
		if q.WorkspaceID != "" {
			s += " OR " + workspaceToken(q.WorkspaceID)
		}
		f = append(f, "scope : ("+s+")")
	}
	if len(q.Kinds) > 0 {
		ks := make([]string, len(q.Kinds))
		for i, k := range q.Kinds {
			ks[i] = kindToken(k)
		}
		f = append(f, "scope : ("+strings.Join(ks, " OR ")+")")
	}
	return strings.Join(f, " AND ")
}

// docCount is how many records hold t (for a CJK phrase, its rarest bigram; for a lone CJK
// character, every bigram it starts).
func docCount(ctx context.Context, db *sql.DB, t term) (int, error) {
	if t.single {
		var n sql.NullInt64
		lo := t.tokens[0]
		err := db.QueryRowContext(ctx, `SELECT sum(doc) FROM vocab WHERE term >= ? AND term < ?`, lo, lo+"\U0010FFFF").Scan(&n)
		return int(n.Int64), err
	}
	least := -1
	for _, tok := range t.tokens {
		var n int
		err := db.QueryRowContext(ctx, `SELECT doc FROM vocab WHERE term = ?`, tok).Scan(&n)
		if err == sql.ErrNoRows {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		if least < 0 || n < least {
			least = n
		}
	}
	return max(least, 0), nil
}
