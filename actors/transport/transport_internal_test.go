package transport

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/providers"
)

// gateProvider answers when released; ctx ends a call early.
type gateProvider struct {
	started chan struct{} // one send per call, buffered by the test
	release chan struct{}
}

func (*gateProvider) Name() string { return "test/gate" }

func (g *gateProvider) Complete(ctx context.Context, _ providers.Request) (providers.Response, error) {
	g.started <- struct{}{}
	select {
	case <-g.release:
		return providers.Response{Text: "ok"}, nil
	case <-ctx.Done():
		return providers.Response{}, ctx.Err()
	}
}

// idleWorkers is how many workers wait for a call.
func (t *transportActor) idleWorkers() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.idle)
}

// spawnTransportActor starts a transport actor for p on its own actor
// system and returns it and its PID; the actor stops (its workers with
// it) and the system shuts down with the test.
func spawnTransportActor(t *testing.T, p providers.Provider) (*transportActor, *actor.RootContext, *actor.PID) {
	t.Helper()
	sys := actor.NewActorSystem()
	ta := &transportActor{p: p}
	pid := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return ta },
		actor.WithDispatcher(actor.NewSynchronizedDispatcher(300))))
	t.Cleanup(func() {
		_ = sys.Root.StopFuture(pid).Wait()
		ta.workers.Wait()
		sys.Shutdown()
	})
	return ta, sys.Root, pid
}

func call(root *actor.RootContext, pid *actor.PID, ctx context.Context) chan transportReply {
	reply := make(chan transportReply, 1)
	root.Send(pid, &transportCall{ctx: ctx, req: providers.Request{}, reply: reply})
	return reply
}

// within waits until cond holds, failing the test after a generous bound:
// a worker's bookkeeping after its reply has no event of its own.
func within(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
	}
}

// TestTransportWorkers: a worker that finished waits for the next call
// and takes it; past maxIdleWorkers the extra workers leave; stopping
// the actor ends the waiting workers and the calls in flight.
func TestTransportWorkers(t *testing.T) {
	g := &gateProvider{started: make(chan struct{}, 64), release: make(chan struct{})}
	ta, root, pid := spawnTransportActor(t, g)
	close(g.release)
	for range 5 { // one after another: one worker serves them all
		if r := <-call(root, pid, context.Background()); r.err != nil {
			t.Fatal(r.err)
		}
		<-g.started
		within(t, "the worker waits for the next call", func() bool { return ta.idleWorkers() == 1 })
	}
	if n := ta.spawned.Load(); n != 1 {
		t.Errorf("%d workers served 5 calls one after another, want 1", n)
	}

	// Many at once: each gets a worker, and only maxIdleWorkers stay.
	g2 := &gateProvider{started: make(chan struct{}, 64), release: make(chan struct{})}
	ta2, root2, pid2 := spawnTransportActor(t, g2)
	var replies []chan transportReply
	for range maxIdleWorkers + 8 {
		replies = append(replies, call(root2, pid2, context.Background()))
	}
	for range maxIdleWorkers + 8 {
		<-g2.started // every call runs at once
	}
	close(g2.release)
	for _, r := range replies {
		if rr := <-r; rr.err != nil {
			t.Fatal(rr.err)
		}
	}
	within(t, "the idle workers settle", func() bool { return ta2.idleWorkers() == maxIdleWorkers })
	if n := ta2.spawned.Load(); n != maxIdleWorkers+8 {
		t.Errorf("%d workers for %d concurrent calls", n, maxIdleWorkers+8)
	}

	// A call in flight when the actor stops ends canceled, and Stopping
	// returns only after every worker left.
	g3 := &gateProvider{started: make(chan struct{}, 1), release: make(chan struct{})}
	ta3, root3, pid3 := spawnTransportActor(t, g3)
	r := call(root3, pid3, context.Background())
	<-g3.started
	if err := root3.StopFuture(pid3).Wait(); err != nil {
		t.Fatal(err)
	}
	if rr := <-r; !errors.Is(rr.err, context.Canceled) {
		t.Fatalf("call in flight at stop = %v, want canceled", rr.err)
	}
	waited := make(chan struct{})
	go func() { ta3.workers.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("a worker outlived its actor")
	}
}

// TestTransportWorkerPanics: a provider's panic fails its call, and the
// worker goes on serving.
func TestTransportWorkerPanics(t *testing.T) {
	var once sync.Once
	p := providerFunc(func(context.Context, providers.Request) (providers.Response, error) {
		once.Do(func() { panic("boom") })
		return providers.Response{Text: "ok"}, nil
	})
	_, root, pid := spawnTransportActor(t, p)
	if r := <-call(root, pid, context.Background()); r.err == nil {
		t.Fatal("a panicking provider's call succeeded")
	}
	if r := <-call(root, pid, context.Background()); r.err != nil || r.resp.Text != "ok" {
		t.Fatalf("the call after a panic = %+v", r)
	}
}

type providerFunc func(context.Context, providers.Request) (providers.Response, error)

func (providerFunc) Name() string { return "test/func" }

func (f providerFunc) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	return f(ctx, req)
}
