package transport

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// Transport actors. Each provider candidate (one model ref behind one
// transport) is served by its own actor under the transports supervisor.
// The actor never blocks: it hands every call to a worker goroutine it
// owns, so requests of many agents run concurrently; a call ends with its
// caller's context (an agent's stop cancels it) or with the actor (a
// runtime shutdown cancels every call in flight).
//
// Two choices keep the hop cheap (bench transport compares a round through
// the actor with a bare HTTP round trip). The actor runs on protoactor's
// synchronized dispatcher: its Receive, which only hands a call over, runs
// on the sender's goroutine instead of a goroutine started for each
// mailbox run. And a worker that finished a call waits a while for the
// next one instead of exiting, so a call rarely pays for a new goroutine
// and for growing its stack through the HTTP client's depth.

// Worker reuse: a worker waits up to workerIdle for its next call, and at
// most maxIdleWorkers wait at once per candidate; the others leave.
const (
	workerIdle     = 30 * time.Second
	maxIdleWorkers = 32
)

// transportCall asks a transport actor for one model round. reply is
// buffered (1): the worker never blocks on a caller that left.
type transportCall struct {
	ctx   context.Context
	req   providers.Request
	reply chan transportReply
}

// Priority implements mailbox.Prioritized.
func (*transportCall) Priority() messages.Priority { return messages.PriorityNormal }

type transportReply struct {
	resp providers.Response
	err  error
}

// transportActor owns the calls to one provider candidate and the
// workers that run them.
type transportActor struct {
	p      providers.Provider
	ctx    context.Context // cancelled when the actor stops
	cancel context.CancelFunc

	mu      sync.Mutex
	idle    []*worker      // waiting for a call, most recent last
	workers sync.WaitGroup // every worker, running or waiting
	spawned atomic.Int64   // workers started, ever
}

// worker is one goroutine serving calls; next hands it its next call.
// Buffered (1): whoever takes a worker off the idle list sends it one
// call and never blocks; the worker drains it.
type worker struct{ next chan *transportCall }

// Receive hands each call to a worker; Stopping cancels the calls and
// waits for every worker, so no call outlives its actor.
func (t *transportActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		t.ctx, t.cancel = context.WithCancel(context.Background())
	case *transportCall:
		t.start(m)
	case *actor.Stopping, *actor.Restarting:
		t.cancel()
		t.workers.Wait()
	}
}

// start gives m to the worker that waited least, or to a new one when
// none waits.
func (t *transportActor) start(m *transportCall) {
	t.mu.Lock()
	if n := len(t.idle); n > 0 {
		w := t.idle[n-1]
		t.idle = t.idle[:n-1]
		t.mu.Unlock()
		w.next <- m
		return
	}
	t.mu.Unlock()
	t.workers.Add(1)
	t.spawned.Add(1)
	go t.work(&worker{next: make(chan *transportCall, 1)}, m)
}

// work runs m, then the calls handed to it while it waits, until it has
// waited workerIdle, enough other workers wait, or the actor stops.
func (t *transportActor) work(w *worker, m *transportCall) {
	defer t.workers.Done()
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		t.serve(m)
		if !t.park(w) {
			return
		}
		idle.Reset(workerIdle)
		select {
		case m = <-w.next:
			continue
		case <-idle.C:
		case <-t.ctx.Done():
		}
		if t.unpark(w) {
			return
		}
		m = <-w.next // taken off the list meanwhile: its call is on the way
	}
}

// park puts w on the idle list; false when it should leave instead (the
// actor stops, or enough workers wait).
func (t *transportActor) park(w *worker) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ctx.Err() != nil || len(t.idle) >= maxIdleWorkers {
		return false
	}
	t.idle = append(t.idle, w)
	return true
}

// unpark takes w off the idle list; false when start took it first.
func (t *transportActor) unpark(w *worker) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, x := range t.idle {
		if x == w {
			t.idle = append(t.idle[:i], t.idle[i+1:]...)
			return true
		}
	}
	return false
}

// serve runs one call under a context that ends with its caller's or
// with the actor, and replies.
func (t *transportActor) serve(m *transportCall) {
	ctx, stop := context.WithCancel(m.ctx)
	unlink := context.AfterFunc(t.ctx, stop) // the actor's end ends the call
	resp, err := CompleteSafely(ctx, t.p, m.req)
	unlink()
	stop()
	m.reply <- transportReply{resp: resp, err: err}
}

// transportProvider is the providers.Provider agents see for a candidate:
// it sends each call to the candidate's transport actor.
type transportProvider struct {
	name   string
	pid    *actor.PID
	root   *actor.RootContext
	closed func() bool
}

// NewProvider returns the provider agents see for candidate name: each
// call is sent through root to the candidate's transport actor pid (from
// Spawned) and waits for its reply or for ctx. Once closed reports true
// (the runtime is shut down), calls fail at once as canceled. closed runs
// on the caller's goroutine and must be safe for concurrent use.
func NewProvider(name string, pid *actor.PID, root *actor.RootContext, closed func() bool) providers.Provider {
	return &transportProvider{name: name, pid: pid, root: root, closed: closed}
}

// Name implements providers.Provider.
func (p *transportProvider) Name() string { return p.name }

// Complete implements providers.Provider.
func (p *transportProvider) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	if p.closed() {
		return providers.Response{}, &providers.Error{Provider: p.name, Kind: providers.KindCanceled, Message: "the runtime is shut down"}
	}
	reply := make(chan transportReply, 1)
	p.root.Send(p.pid, &transportCall{ctx: ctx, req: req, reply: reply})
	select {
	case r := <-reply:
		return r.resp, r.err
	case <-ctx.Done():
		return providers.Response{}, providers.CtxError(ctx, p.name, providers.StageRequest, nil)
	}
}

// CompleteSafely calls the provider; a panic in it becomes a provider
// failure (KindProviderUnknown) instead of a crash of the daemon.
func CompleteSafely(ctx context.Context, p providers.Provider, req providers.Request) (resp providers.Response, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &providers.Error{Provider: p.Name(), Kind: providers.KindProviderUnknown, Message: fmt.Sprintf("provider panicked: %v", r)}
		}
	}()
	return p.Complete(ctx, req)
}

// Spawned answers Spawn.
type Spawned struct {
	PID     *actor.PID
	Created bool // false when the candidate already had its actor
}

// Spawn asks the transports supervisor for the actor of candidate Name,
// which serves Provider's calls; the reply is *Spawned, or an error when
// the actor cannot be spawned. A Name seen before gets the actor it has,
// whatever its Provider.
type Spawn struct {
	Name     string
	Provider providers.Provider
}

// SupervisorProps returns the Props of the transports supervisor, the
// parent of every transport actor: one-for-one restarts, up to 10 a minute
// per actor. Spawn it once per actor system and ask it with Spawn;
// stopping it stops its actors, which cancel and wait for their calls in
// flight.
func SupervisorProps() *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &transportsSupervisor{byName: map[string]*actor.PID{}} },
		actor.WithSupervisor(actor.NewOneForOneStrategy(10, time.Minute, actor.DefaultDecider)))
}

// transportsSupervisor spawns one transport actor per candidate name and
// restarts one that panics. A provider's own panic never reaches the actor
// (CompleteSafely turns it into a failed call); a restart cancels the
// calls the old instance had in flight, and their callers see a
// cancellation.
type transportsSupervisor struct {
	byName map[string]*actor.PID
}

// Receive answers Spawn with the candidate's PID.
func (s *transportsSupervisor) Receive(c actor.Context) {
	m, ok := c.Message().(*Spawn)
	if !ok {
		return
	}
	if pid, ok := s.byName[m.Name]; ok {
		c.Respond(&Spawned{PID: pid})
		return
	}
	p := m.Provider
	props := actor.PropsFromProducer(func() actor.Actor { return &transportActor{p: p} },
		actor.WithDispatcher(actor.NewSynchronizedDispatcher(300)))
	pid, err := c.SpawnNamed(props, transportActorName(m.Name, len(s.byName)))
	if err != nil {
		c.Respond(err)
		return
	}
	s.byName[m.Name] = pid
	c.Respond(&Spawned{PID: pid, Created: true})
}

// transportActorName makes a model ref usable as an actor name.
func transportActorName(ref string, n int) string {
	return fmt.Sprintf("%s#%d", strings.NewReplacer("/", "_", " ", "_").Replace(ref), n)
}
