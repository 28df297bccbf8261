package pgtriggers_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/control/pgtriggers"
	"github.com/holon-actors/holon-actors/internal/pgtest"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/persistence/pgjournal"
)

// pg is the package's PostgreSQL server; each test takes a database of it.
var pg *pgtest.Server

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &pg)) }

var now = time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)

// openJournal opens the journal on url, which migrates the trigger
// tables; the test's cleanup closes it.
func openJournal(t *testing.T, url string) *pgjournal.Store {
	t.Helper()
	s, err := pgjournal.Open(context.Background(), pgjournal.DefaultConfig(url))
	if err != nil {
		t.Fatalf("open the journal: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil && !errors.Is(err, persistence.ErrClosed) {
			t.Errorf("Close() = %v", err)
		}
	})
	return s
}

// nodes opens n registries on one new database at once, each on its own
// journal: n nodes of a cluster starting together.
func nodes(t *testing.T, n int) []*pgtriggers.Registry {
	t.Helper()
	url := pg.NewDatabase(t)
	openJournal(t, url) // migrated once, so the registries race on the key alone
	regs := make([]*pgtriggers.Registry, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		pool := openJournal(t, url).Pool()
		wg.Go(func() { regs[i], errs[i] = pgtriggers.Open(context.Background(), pool) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return regs
}

// TestSharedKey: registries opened at once on one database agree on the
// key, so every node hands out the same URL for a trigger, finds a
// trigger another made, and sees it revoked.
func TestSharedKey(t *testing.T) {
	ctx := context.Background()
	regs := nodes(t, 4)
	tr, token, created, err := regs[0].Ensure(ctx, "main", now)
	if err != nil || !created || tr.Status != control.TriggerActive || tr.DeliveryMode != "wake_hint" || tr.AgentID != "main" {
		t.Fatalf("Ensure = %+v, %v, %v", tr, created, err)
	}
	if tr.TokenSHA256 != control.TriggerTokenHash(token) || tr.TokenSHA256 == token {
		t.Fatalf("the record keeps %q for token %q; want its SHA-256 only", tr.TokenSHA256, token)
	}
	for i, r := range regs[1:] {
		again, tok, created, err := r.Ensure(ctx, "main", now.Add(time.Minute))
		if err != nil || created || tok != token || again.ID != tr.ID || !again.CreatedAt.Equal(tr.CreatedAt) {
			t.Errorf("Ensure at node %d = %+v %q %v %v; want trigger %s with the same token", i+1, again, tok, created, err, tr.ID)
		}
		if got, ok, err := r.Lookup(ctx, token); err != nil || !ok || got.ID != tr.ID {
			t.Errorf("Lookup at node %d = %+v, %v, %v", i+1, got, ok, err)
		}
	}
	if _, ok, err := regs[1].Lookup(ctx, token+"x"); err != nil || ok {
		t.Errorf("Lookup of an unknown token = %v, %v", ok, err)
	}

	revoked, ok, err := regs[2].Revoke(ctx, "main", now.Add(time.Hour))
	if err != nil || !ok || revoked.Status != control.TriggerRevoked || revoked.RevokedAt == nil || !revoked.RevokedAt.Equal(now.Add(time.Hour)) {
		t.Fatalf("Revoke = %+v, %v, %v", revoked, ok, err)
	}
	if _, ok, err := regs[2].Revoke(ctx, "main", now); err != nil || ok {
		t.Errorf("a second Revoke = %v, %v; want none to revoke", ok, err)
	}
	if _, ok, err := regs[3].Lookup(ctx, token); err != nil || ok {
		t.Errorf("Lookup of a revoked token at another node = %v, %v; want not found", ok, err)
	}
	_, tok2, created, err := regs[3].Ensure(ctx, "main", now)
	if err != nil || !created || tok2 == token {
		t.Fatalf("Ensure after revoke = %v, %v; want a new token", created, err)
	}
	if got, ok, _ := regs[0].Lookup(ctx, tok2); !ok || got.AgentID != "main" {
		t.Errorf("the new token at the first node = %+v, %v", got, ok)
	}
}

// TestEnsureConcurrent: nodes ensuring one agent's trigger at once make
// one.
func TestEnsureConcurrent(t *testing.T) {
	regs := nodes(t, 2)
	const callers = 8
	tokens := make([]string, callers)
	createdN := make([]bool, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			var err error
			_, tokens[i], createdN[i], err = regs[i%2].Ensure(context.Background(), "worker", now)
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	made := 0
	for i := range callers {
		if createdN[i] {
			made++
		}
		if tokens[i] != tokens[0] {
			t.Errorf("caller %d got token %q, caller 0 %q", i, tokens[i], tokens[0])
		}
	}
	if made != 1 {
		t.Errorf("%d callers created the trigger, want 1", made)
	}
}

// TestReserveConcurrentDuplicate: one delivery received by two nodes at
// once, many times over, is admitted once; the count says one delivery.
func TestReserveConcurrentDuplicate(t *testing.T) {
	ctx := context.Background()
	regs := nodes(t, 2)
	tr, token, _, err := regs[0].Ensure(ctx, "main", now)
	if err != nil {
		t.Fatal(err)
	}
	const attempts = 16
	firsts := make(chan bool, attempts)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range attempts {
		wg.Go(func() {
			<-start
			first, err := regs[i%2].Reserve(ctx, tr.ID, "gh-delivery-1", now)
			if err != nil {
				t.Error(err)
			}
			firsts <- first
		})
	}
	close(start)
	wg.Wait()
	close(firsts)
	admitted := 0
	for f := range firsts {
		if f {
			admitted++
		}
	}
	if admitted != 1 {
		t.Fatalf("the same delivery through two nodes at once was admitted %d times, want once", admitted)
	}
	got, _, err := regs[1].Lookup(ctx, token)
	if err != nil || got.TriggerCount != 1 || got.LastTriggeredAt == nil || !got.LastTriggeredAt.Equal(now) {
		t.Errorf("after the deliveries: %+v, %v; want a count of 1 at %s", got, err, now)
	}
}

// TestReserveRelease: a delivery without an id is always admitted; a
// released id is admitted again; unknown triggers admit nothing.
func TestReserveRelease(t *testing.T) {
	ctx := context.Background()
	regs := nodes(t, 2)
	tr, token, _, err := regs[0].Ensure(ctx, "main", now)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		node      int
		delivery  string
		release   bool
		wantFirst bool
	}{
		{0, "", false, true},
		{1, "", false, true},
		{0, "d-1", false, true},
		{1, "d-1", false, false},
		{1, "d-2", false, true},
		{0, "d-2", true, false}, // released: the sender's retry is not a duplicate
		{1, "d-2", false, true},
	}
	for i, s := range steps {
		if s.release {
			if err := regs[s.node].Release(ctx, tr.ID, s.delivery); err != nil {
				t.Fatalf("step %d: Release = %v", i, err)
			}
			continue
		}
		if first, err := regs[s.node].Reserve(ctx, tr.ID, s.delivery, now); err != nil || first != s.wantFirst {
			t.Fatalf("step %d: Reserve(%q) at node %d = %v, %v; want %v", i, s.delivery, s.node, first, err, s.wantFirst)
		}
	}
	if got, _, _ := regs[0].Lookup(ctx, token); got.TriggerCount != 4 {
		t.Errorf("count = %d, want 4 (two without an id, d-1, d-2 once after its release)", got.TriggerCount)
	}
	if first, err := regs[0].Reserve(ctx, "trg_unknown", "d-9", now); err != nil || first {
		t.Errorf("Reserve of an unknown trigger = %v, %v; want nothing admitted", first, err)
	}
	if err := regs[0].Release(ctx, "trg_unknown", "d-9"); err != nil {
		t.Errorf("Release of an unknown trigger = %v", err)
	}
}

// TestRecentDeliveriesBounded: a trigger keeps its latest
// control.RecentDeliveries delivery ids; the oldest beyond is forgotten.
func TestRecentDeliveriesBounded(t *testing.T) {
	ctx := context.Background()
	regs := nodes(t, 1)
	tr, _, _, err := regs[0].Ensure(ctx, "main", now)
	if err != nil {
		t.Fatal(err)
	}
	for i := range control.RecentDeliveries + 1 {
		if first, err := regs[0].Reserve(ctx, tr.ID, fmt.Sprintf("d-%d", i), now); err != nil || !first {
			t.Fatalf("Reserve d-%d = %v, %v", i, first, err)
		}
	}
	if first, err := regs[0].Reserve(ctx, tr.ID, "d-1", now); err != nil || first {
		t.Errorf("d-1, among the latest %d, = %v, %v; want a duplicate", control.RecentDeliveries, first, err)
	}
	if first, err := regs[0].Reserve(ctx, tr.ID, "d-0", now); err != nil || !first {
		t.Errorf("d-0, older than the latest %d, = %v, %v; want it forgotten", control.RecentDeliveries, first, err)
	}
	if first, err := regs[0].Reserve(ctx, tr.ID, "d-1", now); err != nil || !first {
		t.Errorf("d-1, pushed out by d-0's return, = %v, %v; want it forgotten", first, err)
	}
}
