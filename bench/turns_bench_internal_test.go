package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
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

// BenchmarkTurnsRun is a small `bench turns` run per op: 50 new agents,
// each activated by its first prompt, × 5 turns, driven side by side as
// driveAll drives them, so appends share group commits as in the bench.
// It reports the allocations, bytes and process CPU per turn (the
// drivers' included).
func BenchmarkTurnsRun(b *testing.B) {
	const agents, turns = 50, 5
	ctx := context.Background()
	st, rt := benchTurnRuntime(b)
	round := 0
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0, cpuErr := processCPU(os.Getpid())
	for b.Loop() {
		var wg sync.WaitGroup
		errs := make(chan error, agents)
		for i := range agents {
			id := fmt.Sprintf("bench-run%d-%03d", round, i)
			wg.Go(func() {
				if _, err := driveAgent(ctx, rt, st, id, turns, nil, nil); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
		round++
	}
	cpu1, err := processCPU(os.Getpid())
	runtime.ReadMemStats(&after)
	n := float64(b.N * agents * turns)
	if cpuErr == nil && err == nil {
		b.ReportMetric(float64((cpu1-cpu0).Microseconds())/n, "cpu-µs/turn")
	}
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/turn")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/turn")
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
