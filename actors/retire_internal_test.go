package actors

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"weak"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/persistence"
)

// TestRetiredActorIsCollected: nothing keeps a retired agent's actor
// reachable. protoactor's PIDSet keeps removed PIDs in its backing array,
// and a PID caches its process until something is sent to it after the
// process died; releasePID clears that cache.
func TestRetiredActorIsCollected(t *testing.T) {
	rt, err := NewRuntime(AgentDeps{Store: persistence.NewMemStore(), Log: zerolog.Nop()}, RuntimeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	ctx := context.Background()
	var procs []weak.Pointer[actor.ActorProcess]
	for i := range 20 {
		id := fmt.Sprintf("a%d", i)
		if err := rt.Activate(ctx, id); err != nil {
			t.Fatal(err)
		}
		rt.mu.RLock()
		pid := rt.pids[id]
		rt.mu.RUnlock()
		p, ok := rt.sys.ProcessRegistry.Get(pid)
		if !ok {
			t.Fatalf("agent %s is not registered", id)
		}
		procs = append(procs, weak.Make(p.(*actor.ActorProcess)))
	}
	if err := rt.PassivateIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if active := rt.Active(); len(active) != 0 {
		t.Fatalf("Active() = %v after PassivateIdle, want none", active)
	}
	runtime.GC()
	runtime.GC()
	live := 0
	for _, w := range procs {
		if w.Value() != nil {
			live++
		}
	}
	if live != 0 {
		t.Fatalf("%d of %d retired agent actors are still reachable", live, len(procs))
	}
}
