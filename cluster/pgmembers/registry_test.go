package pgmembers_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/cluster/pgmembers"
)

func aliveIDs(t *testing.T, r *pgmembers.Registry) []string {
	t.Helper()
	ms, err := r.Alive(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	return ids
}

// TestLeaseLapsesAndTheIDStaysOut: a member that stops renewing drops out
// of Alive once its lease lapsed; its renewal then fails with ErrLeaseLost
// and it cannot join again under the same id, only under a new one.
func TestLeaseLapsesAndTheIDStaysOut(t *testing.T) {
	ctx := context.Background()
	pool := newPool(t, pg.NewDatabase(t))
	const lease = 300 * time.Millisecond
	r, err := pgmembers.Open(ctx, pool, "c1", lease)
	if err != nil {
		t.Fatal(err)
	}
	other, err := pgmembers.Open(ctx, pool, "c2", lease) // another cluster in the same database
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b"} {
		if err := r.Join(ctx, pgmembers.Member{ID: id, Host: "127.0.0.1", Port: 7000, Kinds: []string{"agent"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := other.Join(ctx, pgmembers.Member{ID: "z", Host: "127.0.0.1", Port: 7001}); err != nil {
		t.Fatal(err)
	}
	if got := aliveIDs(t, r); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("alive = %v, want [a b]", got)
	}

	// a renews, b does not: b lapses.
	deadline := time.After(10 * time.Second)
	renew := time.NewTicker(lease / 5) // a's renewal period
	defer renew.Stop()
	for slices.Contains(aliveIDs(t, r), "b") {
		if err := r.Renew(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		select {
		case <-renew.C:
		case <-deadline:
			t.Fatal("b never lapsed")
		}
	}
	if got := aliveIDs(t, r); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("alive = %v, want [a]", got)
	}
	if err := r.Renew(ctx, "b"); !errors.Is(err, pgmembers.ErrLeaseLost) {
		t.Fatalf("renew of a lapsed lease = %v, want ErrLeaseLost", err)
	}
	if err := r.Join(ctx, pgmembers.Member{ID: "b", Host: "127.0.0.1", Port: 7000}); !errors.Is(err, pgmembers.ErrLeaseLost) {
		t.Fatalf("join again under a lapsed id = %v, want ErrLeaseLost", err)
	}
	if err := r.Join(ctx, pgmembers.Member{ID: "b2", Host: "127.0.0.1", Port: 7000}); err != nil {
		t.Fatal(err)
	}
	if got := aliveIDs(t, r); !slices.Equal(got, []string{"a", "b2"}) {
		t.Fatalf("alive = %v, want [a b2]", got)
	}
	// A graceful leave drops a member at once, for good.
	if err := r.Leave(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if got := aliveIDs(t, r); !slices.Equal(got, []string{"b2"}) {
		t.Fatalf("alive after a left = %v, want [b2]", got)
	}
	if err := r.Renew(ctx, "a"); !errors.Is(err, pgmembers.ErrLeaseLost) {
		t.Fatalf("renew after leaving = %v, want ErrLeaseLost", err)
	}
}

func TestJoinRefusesAnIncompleteMember(t *testing.T) {
	r, err := pgmembers.Open(context.Background(), newPool(t, pg.NewDatabase(t)), "c", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []pgmembers.Member{{Host: "h", Port: 1}, {ID: "a", Port: 1}, {ID: "a", Host: "h"}} {
		if err := r.Join(context.Background(), m); err == nil {
			t.Errorf("join %+v succeeded", m)
		}
	}
	if got := aliveIDs(t, r); len(got) != 0 {
		t.Fatalf("refused joins registered %v", got)
	}
}
