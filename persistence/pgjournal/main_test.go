package pgjournal_test

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"

	"github.com/holon-actors/holon-actors/internal/pgtest"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/persistence/pgjournal"
	"github.com/holon-actors/holon-actors/persistence/storetest"
)

// pg is the package's PostgreSQL server; each test takes a database of it.
var pg *pgtest.Server

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &pg)) }

// openStore opens a store on url; the test's cleanup closes it.
func openStore(t testing.TB, url string) *pgjournal.Store {
	t.Helper()
	s, err := pgjournal.Open(context.Background(), pgjournal.DefaultConfig(url))
	if err != nil {
		t.Fatalf("Open(%s) = %v", url, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil && !errors.Is(err, persistence.ErrClosed) {
			t.Errorf("Close() = %v", err)
		}
	})
	return s
}

func TestStoreConformance(t *testing.T) {
	var mu sync.Mutex
	urls := map[persistence.Store]string{}
	open := func(t *testing.T, url string) persistence.Store {
		s := openStore(t, url)
		mu.Lock()
		urls[s] = url
		mu.Unlock()
		return s
	}
	storetest.Run(t, storetest.Factory{
		Name: "postgres",
		Open: func(t *testing.T) persistence.Store { return open(t, pg.NewDatabase(t)) },
		Reopen: func(t *testing.T, s persistence.Store) persistence.Store {
			mu.Lock()
			url := urls[s]
			mu.Unlock()
			if err := s.Close(); err != nil {
				t.Fatalf("Close() = %v", err)
			}
			return open(t, url)
		},
	})
}
