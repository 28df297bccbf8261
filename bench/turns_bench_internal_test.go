package bench

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/persistence"
)

// BenchmarkTurn is one turn of `bench turns` (a prompt, one echo call, the
// answer) of one warm agent on a durable store, driven as driveAgent
// drives it: its allocations per op are the runtime's per turn plus the
// driver's one read of the turn's events.
func BenchmarkTurn(b *testing.B) {
	ctx := context.Background()
	st, rt := benchTurnRuntime(b)
	const id = "bench-turn"
	wake := briefsOrAppends(st, id)
	defer wake.close()
	next := uint64(1)
	turn := func(n int) {
		env := promptEnvelope(id, n)
		if _, err := rt.Admit(ctx, env); err != nil {
			b.Fatal(err)
		}
		var err error
		if next, err = awaitBrief(ctx, st, wake.c, id, env.ID, next); err != nil {
			b.Fatal(err)
		}
	}
	turn(0) // activation and the agent's first events are not a turn's cost
	n := 1
	b.ReportAllocs()
	for b.Loop() {
		turn(n)
		n++
	}
}

// benchTurnRuntime opens a durable store in a temporary directory and
// starts the bench's runtime over it; both close when b ends.
func benchTurnRuntime(b *testing.B) (*briefWatch, *actors.Runtime) {
	b.Helper()
	o := persistence.DefaultOptions(filepath.Join(b.TempDir(), TurnsDir))
	bs, err := persistence.Open(o)
	if err != nil {
		b.Fatal(err)
	}
	st := newBriefWatch(bs)
	rt, err := newBenchRuntime(st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := closeRuntime(rt); err != nil {
			b.Error(err)
		}
		if err := bs.Close(); err != nil {
			b.Error(err)
		}
	})
	return st, rt
}
