package persistence_test

import (
	"log/slog"
	"sync"
	"testing"

	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/persistence/storetest"
)

func TestMemStoreConformance(t *testing.T) {
	storetest.Run(t, storetest.Factory{Name: "mem", Open: func(t *testing.T) persistence.Store {
		s := persistence.NewMemStore()
		t.Cleanup(func() { _ = s.Close() })
		return s
	}})
}

func TestBadgerStoreConformance(t *testing.T) {
	storetest.Run(t, badgerFactory())
}

// badgerFactory opens Badger stores in fresh temporary directories. The
// stores sync: the suite checks the production configuration.
func badgerFactory() storetest.Factory {
	var mu sync.Mutex
	dirs := map[persistence.Store]string{}
	open := func(t *testing.T, dir string) persistence.Store {
		o := persistence.DefaultOptions(dir)
		o.Logger = slog.New(slog.DiscardHandler)
		s, err := persistence.Open(o)
		if err != nil {
			t.Fatalf("Open(%s) = %v", dir, err)
		}
		t.Cleanup(func() {
			if err := s.Close(); err != nil {
				t.Errorf("Close(%s) = %v", dir, err)
			}
		})
		mu.Lock()
		dirs[s] = dir
		mu.Unlock()
		return s
	}
	return storetest.Factory{
		Name: "badger",
		Open: func(t *testing.T) persistence.Store { return open(t, t.TempDir()) },
		Reopen: func(t *testing.T, s persistence.Store) persistence.Store {
			mu.Lock()
			dir := dirs[s]
			mu.Unlock()
			if err := s.Close(); err != nil {
				t.Fatalf("Close() = %v", err)
			}
			return open(t, dir)
		},
	}
}
