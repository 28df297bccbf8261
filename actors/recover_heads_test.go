package actors_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/testkit"
)

// headerCounting is a Badger store that counts the stream headers read one
// by one (it still lists every head in one scan: HeadLister).
type headerCounting struct {
	*persistence.BadgerStore
	loads atomic.Int64
}

func (s *headerCounting) LoadHeader(ctx context.Context, stream string) (persistence.Header, bool, error) {
	s.loads.Add(1)
	return s.BadgerStore.LoadHeader(ctx, stream)
}

// TestRecoverReadsSettledAgentsHeadsInOneScan: after a shutdown, Recover
// leaves the settled agents dormant from one scan of every stream's head,
// without reading any agent's header by itself.
func TestRecoverReadsSettledAgentsHeadsInOneScan(t *testing.T) {
	const agents = 20
	o := persistence.DefaultOptions(t.TempDir())
	o.Logger, o.GCInterval = slog.New(slog.DiscardHandler), 0
	st, err := persistence.Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	start := func(store persistence.Store) *actors.Runtime {
		rt, err := actors.NewRuntime(actors.AgentDeps{Store: store, Provider: testkit.NewProvider(), Log: zerolog.Nop()}, actors.RuntimeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return rt
	}
	rt := start(st)
	for i := range agents {
		id := fmt.Sprintf("agent-%02d", i)
		if err := rt.Activate(ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, err := rt.State(ctx, id); err != nil { // behind its settling step
			t.Fatal(err)
		}
	}
	if err := rt.Halt(); err != nil { // no snapshots: only the headers leave them dormant
		t.Fatal(err)
	}
	counted := &headerCounting{BadgerStore: st}
	rt = start(counted)
	defer rt.Close()
	open, err := rt.Recover(ctx)
	if err != nil || len(open) != 0 {
		t.Fatalf("Recover = %v, %v; want no open work", open, err)
	}
	if active := rt.Active(); len(active) != 0 {
		t.Errorf("Recover activated %v, want every settled agent dormant", active)
	}
	if n := counted.loads.Load(); n != 0 {
		t.Errorf("Recover read %d stream headers one by one, want 0 (one scan of the heads)", n)
	}
}
