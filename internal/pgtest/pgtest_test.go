package pgtest_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/holon-actors/holon-actors/internal/pgtest"
)

var pg *pgtest.Server

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &pg)) }

// TestDatabasesAreSeparate writes a table in one database and finds it
// absent from the next one: each test gets a database of its own.
func TestDatabasesAreSeparate(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	a, b := pg.NewDatabase(t), pg.NewDatabase(t)
	t.Logf("two databases in %v", time.Since(start))
	if a == b {
		t.Fatalf("NewDatabase twice = %s both times", a)
	}
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatalf("connect %s: %v", a, err)
	}
	defer ca.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE only_in_a (x int)"); err != nil {
		t.Fatalf("create table: %v", err)
	}
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatalf("connect %s: %v", b, err)
	}
	defer cb.Close(ctx)
	var n int
	if err := cb.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("only_in_a in the second database: count %d, %v; want 0, nil", n, err)
	}
}
