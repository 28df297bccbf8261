package pgmembers_test

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/holon-actors/holon-actors/internal/pgtest"
)

// pg is the package's PostgreSQL server; each test takes a database of it.
var pg *pgtest.Server

func TestMain(m *testing.M) {
	code := pgtest.Main(m, &pg)
	memberProgram.Remove() // the member binary the process tests built
	os.Exit(code)
}

func newPool(t *testing.T, url string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}
