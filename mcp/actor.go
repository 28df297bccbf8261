package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/holon-actors/holon-actors/supervision"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrActorGone: the server's actor stopped (the runtime shut down, or its
// supervisor gave up on it after repeated panics).
var ErrActorGone = errors.New("mcp server actor is gone")

// sessionRequest asks a server's actor for the live session; the reply is
// a *sessionReply. The actor hands the session out and the caller calls
// the tool off the actor, so a slow tool call never keeps the actor from
// answering other agents.
type sessionRequest struct{}

type sessionReply struct {
	cs  *sdk.ClientSession
	err error
}

// dialEnded tells the actor that the connect it started has ended.
type dialEnded struct{}

// serverActor is the actor of one MCP server: it answers session
// requests, starting the server lazily. The connect runs in a goroutine
// the Server owns; the requests that arrive meanwhile wait in the actor
// and are answered when it ends. The Server (its connection, crash count,
// restart backoff and quarantine) outlives a restart of the actor after a
// panic: every incarnation is the same instance. Stopping the actor closes
// the server (a stdio server's process group with it).
type serverActor struct {
	s        *Server
	waiting  []*actor.PID // requesters waiting for the connect in flight
	dialing  bool
	testHook func(any) // called with each message before it is handled; tests panic in it
}

// Receive implements actor.Actor.
func (a *serverActor) Receive(ctx actor.Context) {
	if a.testHook != nil {
		a.testHook(ctx.Message())
	}
	switch ctx.Message().(type) {
	case *sessionRequest:
		if r, ok := a.s.sessionNow(); ok {
			ctx.Respond(r)
			return
		}
		if ctx.Sender() != nil {
			a.waiting = append(a.waiting, ctx.Sender())
		}
		a.dial(ctx)
	case *dialEnded:
		a.dialing = false
		r, ok := a.s.sessionNow()
		if !ok { // a restart became due meanwhile: connect again
			a.dial(ctx)
			return
		}
		a.answer(ctx, r)
	case *actor.Restarting:
		// A panic: the server is kept; the connect in flight, if any,
		// still reports to this PID. Waiters answered by their timeout.
	case *actor.Stopping:
		for _, w := range a.waiting {
			ctx.Send(w, &sessionReply{err: fmt.Errorf("%w: %s", ErrClosed, a.s.name)})
		}
		a.waiting = nil
		if err := a.s.Close(); err != nil {
			a.s.log.Warn().Err(err).Msg("mcp server closed with an error")
		}
	}
}

// dial starts the connect in the Server's own goroutine unless one is in
// flight; it tells the actor when it ends.
func (a *serverActor) dial(ctx actor.Context) {
	if a.dialing {
		return
	}
	self, root := ctx.Self(), ctx.ActorSystem().Root
	if a.s.goDial(func() { root.Send(self, &dialEnded{}) }) {
		a.dialing = true
		return
	}
	r, _ := a.s.sessionNow() // closed or quarantined: its error at once
	a.answer(ctx, r)
}

// answer replies r to the requests waiting for a connect.
func (a *serverActor) answer(ctx actor.Context, r *sessionReply) {
	for _, w := range a.waiting {
		ctx.Send(w, r)
	}
	a.waiting = nil
}

// sessionNow answers a session request without waiting: ok is false when
// the server is idle or starting and a connect must be awaited.
func (s *Server) sessionNow() (*sessionReply, bool) {
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	if st == StateIdle || st == StateStarting {
		return nil, false
	}
	cs, err := s.Session(context.Background()) // does not wait in these states
	return &sessionReply{cs: cs, err: err}, true
}

// goDial connects in a goroutine the server owns (Close waits for it) and
// calls done when the connect ended; false when the server is closed.
func (s *Server) goDial(done func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StateClosed || s.state == StateQuarantined {
		return false
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_, _ = s.Session(context.Background())
		done()
	}()
	return true
}

// acquire returns the live session: from the server's actor when it has
// one (see Manager.Spawn), else directly.
func (s *Server) acquire(ctx context.Context) (*sdk.ClientSession, error) {
	s.mu.Lock()
	pid, root, st := s.pid, s.root, s.state
	s.mu.Unlock()
	if pid == nil {
		return s.Session(ctx)
	}
	if st == StateClosed || st == StateQuarantined {
		return s.Session(ctx) // its error, without asking a stopped actor
	}
	wait := s.opts.ConnectTimeout + 5*time.Second
	if d, ok := ctx.Deadline(); ok && time.Until(d) < wait {
		wait = time.Until(d)
	}
	res, err := root.RequestFuture(pid, &sessionRequest{}, wait).Result()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %s: %v", ErrActorGone, s.name, err)
	}
	r, ok := res.(*sessionReply)
	if !ok {
		return nil, fmt.Errorf("%w: %s answered %T", ErrActorGone, s.name, res)
	}
	return r.cs, r.err
}

// mcpSupervisor is the parent of the server actors: its Props carry the
// supervisor strategy that restarts a panicking server actor.
type mcpSupervisor struct {
	m *Manager
}

// spawnChildren asks the supervisor to spawn the server actors.
type spawnChildren struct{}

func (p *mcpSupervisor) Receive(ctx actor.Context) {
	if _, ok := ctx.Message().(*spawnChildren); !ok {
		return
	}
	for _, n := range p.m.names {
		s := p.m.servers[n]
		a := &serverActor{s: s, testHook: p.m.testHook}
		pid, err := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return a }), n)
		if err != nil {
			ctx.Respond(fmt.Errorf("spawn mcp server %s: %w", n, err))
			return
		}
		s.mu.Lock()
		s.pid, s.root = pid, ctx.ActorSystem().Root
		s.mu.Unlock()
	}
	ctx.Respond(nil)
}

// Spawn makes each server an actor under the supervisor named "mcp",
// spawned from root: a panicking server actor is restarted after the
// backoff of policy p, and when p's budget is spent the server is
// quarantined (its agents are told, as after repeated crashes). opts tune
// the strategy (clock, scheduler). Agents get their sessions from the
// actors from now on. Stopping the returned PID stops the server actors,
// which close their servers. Call it once, before the agents use the
// manager.
func (m *Manager) Spawn(root *actor.RootContext, p supervision.Policy, opts ...supervision.Option) (*actor.PID, error) {
	strategy, err := supervision.NewStrategy(p, append(opts, supervision.WithGiveUp(m.gaveUp))...)
	if err != nil {
		return nil, fmt.Errorf("start mcp servers: %w", err)
	}
	props := actor.PropsFromProducer(func() actor.Actor { return &mcpSupervisor{m: m} },
		actor.WithSupervisor(strategy))
	pid, err := root.SpawnNamed(props, "mcp")
	if err != nil {
		return nil, fmt.Errorf("start mcp servers: %w", err)
	}
	res, err := root.RequestFuture(pid, &spawnChildren{}, 10*time.Second).Result()
	if err == nil {
		err, _ = res.(error)
	}
	if err != nil {
		_ = root.StopFuture(pid).Wait()
		return nil, fmt.Errorf("start mcp servers: %w", err)
	}
	return pid, nil
}

// gaveUp quarantines the server whose actor panicked too often: its
// supervisor stops the actor (which closes the server) and the agents
// that used it are told.
func (m *Manager) gaveUp(who *actor.PID, reason any, failures int) {
	name := who.Id[strings.LastIndex(who.Id, "/")+1:]
	s, ok := m.servers[name]
	if !ok {
		return
	}
	s.quarantine(fmt.Sprintf("its actor panicked %d times: %v", failures, reason))
}
