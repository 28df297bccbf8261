package actors_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/testkit"
)

// blockingProvider answers only when released, or fails with its ctx.
type blockingProvider struct {
	started chan struct{}
	release chan struct{}
	calls   atomic.Int32
}

func (*blockingProvider) Name() string { return "test/blocking" }

func (b *blockingProvider) Complete(ctx context.Context, _ providers.Request) (providers.Response, error) {
	b.calls.Add(1)
	b.started <- struct{}{}
	select {
	case <-b.release:
		return providers.Response{Text: "done"}, nil
	case <-ctx.Done():
		return providers.Response{}, ctx.Err()
	}
}

// TestTransportActor: calls through a candidate's transport actor run
// concurrently (the actor never waits on one), the caller's cancellation
// ends its call, and a runtime shutdown ends calls in flight.
func TestTransportActor(t *testing.T) {
	h := testkit.New(t)
	b := &blockingProvider{started: make(chan struct{}, 8), release: make(chan struct{})}
	p, err := h.Runtime.Transport("test/blocking", b)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "test/blocking" {
		t.Fatalf("Name = %q", p.Name())
	}
	// Two calls at once: both reach the provider before either finishes.
	results := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := p.Complete(context.Background(), providers.Request{})
			results <- err
		}()
	}
	<-b.started
	<-b.started
	close(b.release)
	for range 2 {
		if err := <-results; err != nil {
			t.Fatalf("call = %v", err)
		}
	}
	// The caller's cancellation ends its call.
	b2 := &blockingProvider{started: make(chan struct{}, 1), release: make(chan struct{})}
	p2, err := h.Runtime.Transport("test/blocking-2", b2)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := p2.Complete(ctx, providers.Request{})
		done <- err
	}()
	<-b2.started
	cancel()
	if err := <-done; providers.KindOf(err) != providers.KindCanceled {
		t.Fatalf("cancelled call = %v, want canceled", err)
	}
	// A runtime shutdown ends calls in flight, and later calls fail at once.
	go func() {
		_, err := p2.Complete(context.Background(), providers.Request{})
		done <- err
	}()
	<-b2.started
	if err := h.Runtime.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a call survived the shutdown")
		}
	case <-time.After(testkit.WaitTimeout):
		t.Fatal("the shutdown did not end the call in flight")
	}
	if _, err := p2.Complete(context.Background(), providers.Request{}); providers.KindOf(err) != providers.KindCanceled {
		t.Fatalf("a call after shutdown = %v, want canceled at once", err)
	}
}

// nopProvider answers at once: what a round through the transport actor
// costs beyond the provider itself.
type nopProvider struct{}

func (nopProvider) Name() string { return "test/nop" }

func (nopProvider) Complete(context.Context, providers.Request) (providers.Response, error) {
	return providers.Response{Text: "ok"}, nil
}

// BenchmarkTransportHop measures a round through a candidate's transport
// actor, and through a fallback chain over it, with a provider that
// answers at once.
//
//	go test -run='^$' -bench=TransportHop -benchmem ./actors
func BenchmarkTransportHop(b *testing.B) {
	rt, err := actors.NewRuntime(actors.AgentDeps{Store: persistence.NewMemStore(), Log: zerolog.Nop()}, actors.RuntimeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close()
	p, err := rt.Transport("test/nop", nopProvider{})
	if err != nil {
		b.Fatal(err)
	}
	chain, err := providers.NewChain(providers.DefaultRetryPolicy(), []providers.Candidate{{Provider: p}})
	if err != nil {
		b.Fatal(err)
	}
	ctx, req := context.Background(), providers.Request{AgentID: "bench"}
	for _, bb := range []struct {
		name string
		p    providers.Provider
	}{{"actor", p}, {"chain_and_actor", chain}} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bb.p.Complete(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
