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

// rankBudget bounds how many records one Search ranks with bm25 (SQLite's ranking costs tens of
// microseconds a record here, and bm25 also walks each ranked term's whole posting list). Terms
// are taken rarest first while their record counts fit the budget; a query with such rare terms
// ranks only the records holding them. A query whose terms are all common returns the most
// recently written records in scope holding all of them (or, when none holds all, any), scored
// from their text. So one Search costs a bounded amount however large the index grows.
const rankBudget = 1000

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
	type counted struct {
		t term
		n int
	}
	var found []counted
	for _, t := range terms {
		n, err := ix.docCount(ctx, db, t)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			found = append(found, counted{t, n})
		}
	}
	if len(found) == 0 {
		return nil, nil
	}
	slices.SortStableFunc(found, func(a, b counted) int { return a.n - b.n })
	var rare, all []term
	budget := rankBudget
	for _, c := range found {
		all = append(all, c.t)
		if c.n <= budget {
			rare = append(rare, c.t)
			budget -= c.n
		}
	}
	where, args := scopeWhere(q)
	if len(rare) > 0 {
		hits, err := ix.ranked(ctx, db, fmt.Sprintf(rankedSQL, where), matchExpr(rare, " OR "), args, limit, terms)
		if err != nil || len(hits) > 0 {
			return hits, err
		}
	}
	hits, err := ix.ranked(ctx, db, fmt.Sprintf(recentSQL, where), matchExpr(all, " AND "), args, limit, terms)
	if err != nil || len(hits) > 0 {
		return hits, err
	}
	return ix.ranked(ctx, db, fmt.Sprintf(recentSQL, where), matchExpr(all, " OR "), args, limit, terms)
}

// The two searches, with the scope condition put in at %s. rankedSQL ranks by bm25 with title
// matches weighing 4 and body matches 1 (bm25 is lower for better matches, so the score is its
// negation); it runs only on rare terms, so it ranks a bounded number of records. recentSQL
// takes the newest records in scope holding the terms, walking the index newest first and
// stopping at the limit; its score is worked out from the hits' text (termScore).
const (
	rankedSQL = `SELECT fts.rowid, -bm25(fts, 4.0, 1.0) AS s FROM fts JOIN docs d ON d.id = fts.rowid
		WHERE fts MATCH ?%s ORDER BY s DESC LIMIT ?`
	recentSQL = `SELECT fts.rowid, 0.0 FROM fts JOIN docs d ON d.id = fts.rowid
		WHERE fts MATCH ?%s ORDER BY fts.rowid DESC LIMIT ?`
)

// ranked runs one of the search statements and loads the records it names.
func (ix *Index) ranked(ctx context.Context, db *sql.DB, stmt, match string, scopeArgs []any, limit int, terms []term) ([]Hit, error) {
	args := append(append([]any{match}, scopeArgs...), limit)
	st, err := ix.stmts.get(ctx, db, stmt)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
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
		d, err := ix.loadDoc(ctx, db, `id = ?`, s.id)
		if err != nil {
			return nil, err
		}
		if s.score == 0 {
			s.score = termScore(d, terms)
		}
		hits = append(hits, Hit{Provenance: ix.provenance(d), Snippet: snippet(d.Body, terms), Score: s.score})
	}
	return hits, nil
}

// termScore scores a record found by recency: for each term, its saturated count in the title
// (weight 4) and the body (weight 1), as bm25 would without the rarity and length factors.
func termScore(d storedDoc, terms []term) float64 {
	sat := func(n int) float64 { return float64(n) / (float64(n) + 1.2) }
	var s float64
	for _, t := range terms {
		s += 4*sat(countFold(d.Title, t.text)) + sat(countFold(d.Body, t.text))
	}
	return s
}

// matchExpr joins the terms' expressions with op over the title and body columns.
func matchExpr(terms []term, op string) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = t.match()
	}
	return "{title body} : (" + strings.Join(parts, op) + ")"
}

// scopeWhere is the SQL condition on docs d restricting a search to q's workspaces and kinds,
// and its arguments. Agent-scoped records are always in.
func scopeWhere(q Query) (string, []any) {
	var where string
	var args []any
	if !q.AllWorkspaces {
		where = ` AND (d.scope_kind = 'agent' OR d.workspace_id = ?)`
		args = append(args, q.WorkspaceID)
		if q.WorkspaceID == "" {
			where, args = ` AND d.scope_kind = 'agent'`, nil
		}
	}
	if len(q.Kinds) > 0 {
		where += ` AND d.kind IN (?` + strings.Repeat(`, ?`, len(q.Kinds)-1) + `)`
		for _, k := range q.Kinds {
			args = append(args, string(k))
		}
	}
	return where, args
}

// docCount is how many records hold t, counted up to rankBudget+1: past that the term is common
// and its exact count does not matter.
func (ix *Index) docCount(ctx context.Context, db *sql.DB, t term) (int, error) {
	st, err := ix.stmts.get(ctx, db, `SELECT count(*) FROM (SELECT 1 FROM fts WHERE fts MATCH ? LIMIT ?)`)
	if err != nil {
		return 0, err
	}
	var n int
	err = st.QueryRowContext(ctx, matchExpr([]term{t}, ""), rankBudget+1).Scan(&n)
	return n, err
}
