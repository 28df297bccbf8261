package actors

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// Transport actors. Each provider candidate (one model ref behind one
// transport) is served by its own actor under the transports supervisor.
// The actor never blocks: every call runs in a goroutine it owns, so
// requests of many agents run concurrently; a call ends with its caller's
// context (an agent's stop cancels it) or with the actor (a runtime
// shutdown cancels every call in flight).

// transportCall asks a transport actor for one model round. reply is
// buffered (1): the call's goroutine never blocks on a caller that left.
type transportCall struct {
	ctx   context.Context
	req   providers.Request
	reply chan transportReply
}

// Priority implements Prioritized.
func (*transportCall) Priority() messages.Priority { return messages.PriorityNormal }

type transportReply struct {
	resp providers.Response
	err  error
}

// transportActor owns the calls to one provider candidate.
type transportActor struct {
	p      providers.Provider
	ctx    context.Context // cancelled when the actor stops
	cancel context.CancelFunc
	calls  sync.WaitGroup
}

// Receive runs each call in a goroutine; Stopping cancels and waits for
// them, so no call outlives its actor.
func (t *transportActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		t.ctx, t.cancel = context.WithCancel(context.Background())
	case *transportCall:
		t.start(m)
	case *actor.Stopping, *actor.Restarting:
		t.cancel()
		t.calls.Wait()
	}
}

func (t *transportActor) start(m *transportCall) {
	ctx, stop := context.WithCancel(m.ctx)
	unlink := context.AfterFunc(t.ctx, stop) // the actor's end ends the call
	t.calls.Add(1)
	go func() {
		defer t.calls.Done()
		defer stop()
		defer unlink()
		resp, err := completeSafely(ctx, t.p, m.req)
		m.reply <- transportReply{resp: resp, err: err}
	}()
}

// transportProvider is the providers.Provider agents see for a candidate:
// it sends each call to the candidate's transport actor.
type transportProvider struct {
	name string
	pid  *actor.PID
	r    *Runtime
}

// Name implements providers.Provider.
func (p *transportProvider) Name() string { return p.name }

// Complete implements providers.Provider.
func (p *transportProvider) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	if p.r.isClosed() {
		return providers.Response{}, &providers.Error{Provider: p.name, Kind: providers.KindCanceled, Message: "the runtime is shut down"}
	}
	reply := make(chan transportReply, 1)
	p.r.sys.Root.Send(p.pid, &transportCall{ctx: ctx, req: req, reply: reply})
	select {
	case r := <-reply:
		return r.resp, r.err
	case <-ctx.Done():
		return providers.Response{}, providers.CtxError(ctx, p.name, providers.StageRequest, nil)
	}
}

// ErrTransportName is returned for a transport without a name.
var ErrTransportName = errors.New("transport needs a name")

// Transport returns a provider that serves p's calls through the transport
// actor named name (a candidate's model ref), spawned under the transports
// supervisor the first time. Wrap each candidate of a chain with it
// (catalog.ChainWith) so every candidate has its actor.
func (r *Runtime) Transport(name string, p providers.Provider) (providers.Provider, error) {
	if name == "" {
		return nil, ErrTransportName
	}
	if r.isClosed() {
		return nil, ErrRuntimeClosed
	}
	res, err := r.sys.Root.RequestFuture(r.transports, &spawnTransport{name: name, p: p}, r.requestTimeout).Result()
	if err != nil {
		return nil, fmt.Errorf("start transport %s: %w", name, err)
	}
	sp, ok := res.(*spawnedTransport)
	if !ok {
		return nil, fmt.Errorf("start transport %s: %v", name, res)
	}
	if sp.created {
		r.deps.Log.Info().Str("candidate", name).Str("transport", p.Name()).Msg("transport actor started")
	}
	return &transportProvider{name: name, pid: sp.pid, r: r}, nil
}

// spawnedTransport answers spawnTransport.
type spawnedTransport struct {
	pid     *actor.PID
	created bool // false when the candidate already had its actor
}

// spawnTransport asks the transports supervisor for a candidate's actor.
type spawnTransport struct {
	name string
	p    providers.Provider
}

// transportsProps is the transports supervisor: one-for-one restarts, up
// to 10 a minute per actor.
func transportsProps() *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &transportsSupervisor{byName: map[string]*actor.PID{}} },
		actor.WithSupervisor(actor.NewOneForOneStrategy(10, time.Minute, actor.DefaultDecider)))
}

// transportsSupervisor spawns one transport actor per candidate name and
// restarts one that panics. A provider's own panic never reaches the actor
// (completeSafely turns it into a failed call); a restart cancels the
// calls the old instance had in flight, and their callers see a
// cancellation.
type transportsSupervisor struct {
	byName map[string]*actor.PID
}

// Receive answers spawnTransport with the candidate's PID.
func (s *transportsSupervisor) Receive(c actor.Context) {
	m, ok := c.Message().(*spawnTransport)
	if !ok {
		return
	}
	if pid, ok := s.byName[m.name]; ok {
		c.Respond(&spawnedTransport{pid: pid})
		return
	}
	p := m.p
	props := actor.PropsFromProducer(func() actor.Actor { return &transportActor{p: p} })
	pid, err := c.SpawnNamed(props, transportActorName(m.name, len(s.byName)))
	if err != nil {
		c.Respond(err)
		return
	}
	s.byName[m.name] = pid
	c.Respond(&spawnedTransport{pid: pid, created: true})
}

// transportActorName makes a model ref usable as an actor name.
func transportActorName(ref string, n int) string {
	return fmt.Sprintf("%s#%d", strings.NewReplacer("/", "_", " ", "_").Replace(ref), n)
}

// isClosed reports whether Close or Halt ran.
func (r *Runtime) isClosed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

// stopTransports stops the transports supervisor and its actors, which
// cancel and wait for their calls in flight.
func (r *Runtime) stopTransports() error {
	if err := r.sys.Root.StopFuture(r.transports).Wait(); err != nil {
		return fmt.Errorf("stop transports: %w", err)
	}
	return nil
}
