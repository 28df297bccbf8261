package memory

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps the searches' prepared statements for the serving database: preparing one costs
// about as much as running it. The set of statements is small and fixed (a few scope shapes).
type stmtCache struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// get returns query prepared on db. The caller holds the Index's read lock, so db is the serving
// database and stays open while the statement is used.
func (c *stmtCache) get(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[query]; ok {
		return st, nil
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[query] = st
	return st, nil
}

// reset closes every statement; the caller holds the Index's write lock before closing or
// swapping the database.
func (c *stmtCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		_ = st.Close()
	}
	c.m = nil
}
