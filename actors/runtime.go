package actors

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/supervision"
)

// Runtime hosts agents: it owns the actor system and the agents
// supervisor, and routes requests to agent actors by agent id, activating
// an agent (recovering it from its journal) on first use. Agents are
// addressed by id, never by PID.
type Runtime struct {
	sys  *actor.ActorSystem
	deps AgentDeps
	// supervisor and timers are set once in NewRuntime, before any agent
	// exists.
	supervisor *actor.PID
	timers     *actor.PID
	// RequestTimeout bounds how long a caller waits for an agent's answer.
	requestTimeout time.Duration

	mu   sync.Mutex
	pids map[string]*actor.PID // active agents; guarded by mu
	// terminating marks agents stopped by their supervisor whose actor has
	// not terminated yet; guarded by mu.
	terminating map[string]bool
	closed      bool // guarded by mu
}

// RuntimeOptions tunes a Runtime.
type RuntimeOptions struct {
	// Restart is the agents' restart policy; the zero value means
	// supervision.DefaultPolicy().
	Restart supervision.Policy
	// Scheduler runs delayed restarts; nil means time.AfterFunc. Tests
	// pass one that runs them at once.
	Scheduler supervision.Scheduler
	// RequestTimeout bounds a caller's wait for an agent; 0 means 30s.
	RequestTimeout time.Duration
	// Logger receives protoactor's own logs; nil discards them.
	Logger *slog.Logger
}

// ErrRuntimeClosed is returned by every call after Close.
var ErrRuntimeClosed = errors.New("runtime is shut down")

// NewRuntime starts a runtime over deps. It does not activate any agent;
// call Recover to bring back every agent with open work.
func NewRuntime(deps AgentDeps, o RuntimeOptions) (*Runtime, error) {
	deps = deps.withDefaults()
	if o.Restart == (supervision.Policy{}) {
		o.Restart = supervision.DefaultPolicy()
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = 30 * time.Second
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return logger }))
	r := &Runtime{sys: sys, deps: deps, requestTimeout: o.RequestTimeout,
		pids: make(map[string]*actor.PID), terminating: make(map[string]bool)}
	quarantine := func(who *actor.PID, reason any, failures int) {
		id := agentIDOf(who)
		// Route nothing more to the dying actor; activations of id wait
		// for its Terminated (see agentsSupervisor).
		r.mu.Lock()
		delete(r.pids, id)
		r.terminating[id] = true
		r.mu.Unlock()
		r.sys.Root.Send(r.supervisor, &agentGaveUp{id: id, reason: fmt.Sprint(reason), failures: failures})
	}
	strategy, err := supervision.NewStrategy(o.Restart, supervision.WithGiveUp(quarantine),
		supervision.WithScheduler(o.Scheduler), supervision.WithClock(deps.Clock.Now))
	if err != nil {
		return nil, err
	}
	fire := func(f TimerFire) { r.sys.Root.Send(r.supervisor, &timerDue{fire: f}) }
	if r.timers, err = sys.Root.SpawnNamed(TimerServiceProps(deps.Clock, fire), "timers"); err != nil {
		return nil, fmt.Errorf("start timer service: %w", err)
	}
	r.deps.sys, r.deps.timers = sys, r.timers
	props := actor.PropsFromProducer(func() actor.Actor {
		return &agentsSupervisor{r: r, strategy: strategy, waiting: make(map[string][]*actor.PID)}
	},
		actor.WithSupervisor(strategy))
	r.supervisor, err = r.sys.Root.SpawnNamed(props, strings.TrimSuffix(agentsPrefix, "/"))
	if err != nil {
		return nil, fmt.Errorf("start agents supervisor: %w", err)
	}
	return r, nil
}

// Admit admits env into its agent and returns once it is durable.
func (r *Runtime) Admit(ctx context.Context, env messages.MessageEnvelope) (*Admitted, error) {
	res, err := r.ask(ctx, env.AgentID, &Admit{Envelope: env})
	if err != nil {
		return nil, err
	}
	a := res.(*Admitted)
	return a, a.Err
}

// Control sends a lifecycle command to agent id.
func (r *Runtime) Control(ctx context.Context, id string, op ControlOp, reason string) (messages.AgentStatus, error) {
	res, err := r.ask(ctx, id, &Control{Op: op, Reason: reason})
	if err != nil {
		return "", err
	}
	cr := res.(*ControlResult)
	return cr.Status, cr.Err
}

// State returns a copy of agent id's state.
func (r *Runtime) State(ctx context.Context, id string) (AgentState, error) {
	res, err := r.ask(ctx, id, &GetState{})
	if err != nil {
		return AgentState{}, err
	}
	return res.(AgentState), nil
}

// WakeHint sends agent id a pure wake signal. A stopped agent answers
// ErrResumeRequired.
func (r *Runtime) WakeHint(ctx context.Context, id, source, reason string, contentful bool) (WakeDisposition, error) {
	res, err := r.ask(ctx, id, &WakeHintRequest{Source: source, Reason: reason, Contentful: contentful})
	if err != nil {
		return "", err
	}
	w := res.(*WakeHintResult)
	return w.Disposition, w.Err
}

// Info returns agent id's AgentInfo, activating it if needed.
func (r *Runtime) Info(ctx context.Context, id string) (AgentInfo, error) {
	res, err := r.ask(ctx, id, &GetInfo{})
	if err != nil {
		return AgentInfo{}, err
	}
	return res.(AgentInfo), nil
}

// ErrInvalidAgentID is wrapped by the error for an agent id that cannot
// name an agent.
var ErrInvalidAgentID = errors.New("invalid agent id")

// ValidateAgentID checks that id can name an agent (and its home
// directory): a plain, non-empty name without '/', not "." or "..".
func ValidateAgentID(id string) error {
	if _, err := persistence.AgentHome("/", id); err != nil {
		return fmt.Errorf("%w %q: use a plain name (no '/', not empty, not '.' or '..')", ErrInvalidAgentID, id)
	}
	return nil
}

// Exists reports whether agent id has a journal or a running actor. It
// activates nothing.
func (r *Runtime) Exists(ctx context.Context, id string) (bool, error) {
	if err := ValidateAgentID(id); err != nil {
		return false, err
	}
	r.mu.Lock()
	_, active := r.pids[id]
	r.mu.Unlock()
	if active {
		return true, nil
	}
	high, err := r.deps.Store.HighestSeq(ctx, id)
	if err != nil {
		return false, fmt.Errorf("look up agent %s: %w", id, err)
	}
	return high > 0, nil
}

// List returns every agent's info, sorted by id. Active agents answer
// themselves; a dormant agent is described by its snapshot header and
// stays dormant (one without a usable header is activated to answer).
func (r *Runtime) List(ctx context.Context) ([]AgentInfo, error) {
	streams, err := r.deps.Store.Streams(ctx)
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	out := make([]AgentInfo, 0, len(streams))
	for _, id := range streams {
		in, err := r.listInfo(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (r *Runtime) listInfo(ctx context.Context, id string) (AgentInfo, error) {
	r.mu.Lock()
	_, active := r.pids[id]
	r.mu.Unlock()
	if !active {
		high, err := r.deps.Store.HighestSeq(ctx, id)
		if err != nil {
			return AgentInfo{}, fmt.Errorf("look up agent %s: %w", id, err)
		}
		snap, ok, err := r.deps.Store.LoadSnapshot(ctx, id, persistence.LatestSnapshot())
		if err == nil && ok && snap.Seq == high {
			if in, ok, err := snapshotInfo(snap.Data); err == nil && ok {
				return in, nil
			}
		}
	}
	return r.Info(ctx, id)
}

// PendingTimers lists the timers armed in the timer service.
func (r *Runtime) PendingTimers(ctx context.Context) ([]ScheduleTimer, error) {
	res, err := r.sys.Root.RequestFuture(r.timers, &PendingTimers{}, r.requestTimeout).Result()
	if err != nil {
		return nil, fmt.Errorf("pending timers: %w", err)
	}
	return res.([]ScheduleTimer), nil
}

// Activate makes sure agent id is running (recovering it from its journal
// if it was not) without sending it anything.
func (r *Runtime) Activate(ctx context.Context, id string) error {
	_, err := r.activate(ctx, id)
	return err
}

// ask activates agent id if needed and waits for its answer to msg.
func (r *Runtime) ask(ctx context.Context, id string, msg any) (any, error) {
	pid, err := r.activate(ctx, id)
	if err != nil {
		return nil, err
	}
	timeout := r.requestTimeout
	if d, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(d))
	}
	res, err := r.sys.Root.RequestFuture(pid, msg, timeout).Result()
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", id, err)
	}
	return res, nil
}

// activate returns the PID of agent id, spawning (and so recovering) it
// under the agents supervisor when it is not running.
func (r *Runtime) activate(ctx context.Context, id string) (*actor.PID, error) {
	if err := ValidateAgentID(id); err != nil {
		return nil, err
	}
	r.mu.Lock()
	pid, ok := r.pids[id]
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return nil, ErrRuntimeClosed
	}
	if ok {
		return pid, nil
	}
	res, err := r.sys.Root.RequestFuture(r.supervisor, &activateAgent{id: id}, r.requestTimeout).Result()
	if err != nil {
		return nil, fmt.Errorf("activate agent %s: %w", id, err)
	}
	if e, ok := res.(error); ok {
		return nil, e
	}
	return res.(*actor.PID), nil
}

// Recover brings back every agent with an open fact (queued messages, a
// turn in flight, a pending timer or wake hint), so their work goes on
// without outside requests. An agent whose latest snapshot is at its last
// event and records no open fact is left dormant: its state is on disk and
// its first message activates it. Every other agent is activated and
// rebuilt from its snapshot and journal tail, concurrently, a few per core.
// It returns, sorted, the ids of the agents that had open facts.
func (r *Runtime) Recover(ctx context.Context) ([]string, error) {
	streams, err := r.deps.Store.Streams(ctx)
	if err != nil {
		return nil, fmt.Errorf("recover: %w", err)
	}
	var (
		mu       sync.Mutex
		active   []string
		firstErr error
		wg       sync.WaitGroup
		work     = make(chan string)
	)
	for range 4 * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				if r.dormant(ctx, id) {
					continue
				}
				res, err := r.ask(ctx, id, &GetRecovery{})
				mu.Lock()
				switch {
				case err != nil && firstErr == nil:
					firstErr = fmt.Errorf("recover %s: %w", id, err)
				case err == nil && len(res.([]OpenFact)) > 0:
					active = append(active, id)
				}
				mu.Unlock()
			}
		}()
	}
	for _, id := range streams {
		work <- id
	}
	close(work)
	wg.Wait()
	sort.Strings(active)
	return active, firstErr
}

// Active lists the ids of the agents whose actors are running, sorted.
func (r *Runtime) Active() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.pids))
	for id := range r.pids {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// PassivateIdle asks every active agent that is idle to save a snapshot
// and drop its state from memory now, instead of after its idle timeout.
// Agents are asked together; it waits for all of them until ctx ends and
// reports the first agent that did not answer.
func (r *Runtime) PassivateIdle(ctx context.Context) error {
	r.mu.Lock()
	pids := make([]*actor.PID, 0, len(r.pids))
	for _, pid := range r.pids {
		pids = append(pids, pid)
	}
	r.mu.Unlock()
	timeout := r.requestTimeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(dl))
	}
	if timeout <= 0 {
		return fmt.Errorf("passivate idle agents: %w", context.DeadlineExceeded)
	}
	// passivateDone sits behind passivate in the same band, so its answer
	// means the agent has handled the passivation.
	futures := make([]*actor.Future, len(pids))
	for i, pid := range pids {
		r.sys.Root.Send(pid, &passivate{})
		futures[i] = r.sys.Root.RequestFuture(pid, &passivateDone{}, timeout)
	}
	var first error
	for i, f := range futures {
		if _, err := f.Result(); err != nil && first == nil {
			first = fmt.Errorf("passivate %s: %w", pids[i].Id, err)
		}
	}
	return first
}

// dormant reports whether agent id can stay inactive after a restart: its
// latest snapshot covers its whole journal and records no open fact. Any
// doubt (no snapshot, a tail after it, an unreadable header) activates it.
func (r *Runtime) dormant(ctx context.Context, id string) bool {
	high, err := r.deps.Store.HighestSeq(ctx, id)
	if err != nil {
		return false
	}
	snap, ok, err := r.deps.Store.LoadSnapshot(ctx, id, persistence.LatestSnapshot())
	if err != nil || !ok || snap.Seq != high {
		return false
	}
	facts, err := SnapshotOpenFacts(snap.Data)
	return err == nil && len(facts) == 0
}

// Close passivates idle agents (so the next boot finds their snapshots
// current and leaves them dormant), then stops every agent (queued actor
// messages are dropped; everything acknowledged is already durable) and the
// actor system. Agents keep their durable status: a shutdown is not a stop.
// An agent that does not answer within the request timeout is not waited
// for further: it replays its journal tail at the next boot.
func (r *Runtime) Close() error {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if !closed {
		ctx, cancel := context.WithTimeout(context.Background(), r.requestTimeout)
		_ = r.PassivateIdle(ctx) // best effort, see above
		cancel()
	}
	return r.halt()
}

// Halt stops the agents and the actor system without saving anything, as
// if the process had died: the next boot recovers from the journal alone.
// Tests use it to simulate a crash; a daemon calls Close.
func (r *Runtime) Halt() error { return r.halt() }

func (r *Runtime) halt() error {
	r.mu.Lock()
	closed := r.closed
	r.closed = true
	r.mu.Unlock()
	if closed {
		return nil
	}
	if err := r.sys.Root.StopFuture(r.supervisor).Wait(); err != nil {
		return fmt.Errorf("stop agents: %w", err)
	}
	if err := r.sys.Root.StopFuture(r.timers).Wait(); err != nil {
		return fmt.Errorf("stop timer service: %w", err)
	}
	r.sys.Shutdown()
	return nil
}

// timerDue carries a fire from the timer service to the agents supervisor.
type timerDue struct{ fire TimerFire }

// activateAgent asks the agents supervisor for agent id's PID.
type activateAgent struct{ id string }

// agentGaveUp tells the supervisor an agent exhausted its restart budget.
type agentGaveUp struct {
	id       string
	reason   string
	failures int
}

// agentsSupervisor is the parent of every agent actor. Its strategy
// restarts a panicking agent with backoff and, past the budget, stops it
// and reports agentGaveUp, which quarantines the agent durably.
type agentsSupervisor struct {
	r        *Runtime
	strategy *supervision.Strategy
	// waiting holds the senders of activations of a terminating agent,
	// answered once its Terminated arrives.
	waiting map[string][]*actor.PID
}

func (s *agentsSupervisor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *activateAgent:
		s.r.mu.Lock()
		dying := s.r.terminating[m.id]
		s.r.mu.Unlock()
		if dying {
			s.waiting[m.id] = append(s.waiting[m.id], c.Sender())
			return
		}
		c.Respond(s.activate(c, m.id))
	case *agentGaveUp:
		s.quarantine(m)
	case *timerDue:
		// Deliver to the agent, activating it if it is not running; a
		// dying agent re-arms its timers when it is activated again.
		s.r.mu.Lock()
		dying := s.r.terminating[m.fire.AgentID]
		s.r.mu.Unlock()
		if !dying {
			if pid, ok := s.activate(c, m.fire.AgentID).(*actor.PID); ok {
				c.Send(pid, &timerFired{fire: m.fire})
			}
		}
	case *actor.Terminated:
		id := agentIDOf(m.Who)
		s.strategy.Forget(m.Who)
		s.r.mu.Lock()
		if s.r.pids[id] != nil && s.r.pids[id].Equal(m.Who) {
			delete(s.r.pids, id)
		}
		delete(s.r.terminating, id)
		s.r.mu.Unlock()
		for _, sender := range s.waiting[id] {
			c.Send(sender, s.activate(c, id))
		}
		delete(s.waiting, id)
	}
}

// agentsPrefix is the agents supervisor's name; its children's PIDs are
// "agents/<agent id>".
const agentsPrefix = "agents/"

// agentIDOf returns the agent id of an agent actor's PID.
func agentIDOf(pid *actor.PID) string { return strings.TrimPrefix(pid.Id, agentsPrefix) }

func (s *agentsSupervisor) activate(c actor.Context, id string) any {
	s.r.mu.Lock()
	pid, ok := s.r.pids[id]
	s.r.mu.Unlock()
	if ok {
		return pid
	}
	pid, err := c.SpawnNamed(AgentProps(id, s.r.deps), id)
	if err != nil {
		return fmt.Errorf("spawn agent %s: %w", id, err)
	}
	s.r.mu.Lock()
	s.r.pids[id] = pid
	s.r.mu.Unlock()
	return pid
}

// quarantine records, in the agent's own journal, why it was stopped for
// good: a runtime_error for the operator and the durable stopped status.
// The agent actor is gone, so this is the stream's only writer now; the
// next request activates it again, stopped, and it answers with resume
// guidance instead of crash-looping.
func (s *agentsSupervisor) quarantine(m *agentGaveUp) {
	ctx := context.Background()
	store, clock := s.r.deps.Store, s.r.deps.Clock
	summary := fmt.Sprintf("The agent crashed %d times within its restart window and was quarantined (stopped). Last failure: %s. Resume it once the cause is fixed.", m.failures, m.reason)
	var evs []messages.Event
	for _, p := range []messages.Payload{
		messages.RuntimeError{Failure: messages.Failure{Category: messages.FailureRuntime, Code: "agent_quarantined", Message: m.reason, Summary: summary}},
		messages.AgentStateChanged{To: messages.StatusStopped, Reason: "quarantined after repeated crashes"},
	} {
		ev, err := messages.NewEvent(m.id, clock.Now(), p)
		if err != nil {
			s.r.deps.Log.Error().Err(err).Str("agent_id", m.id).Msg("quarantine record not built")
			return
		}
		evs = append(evs, ev)
	}
	if _, err := store.Append(ctx, m.id, evs); err != nil {
		s.r.deps.Log.Error().Err(err).Str("agent_id", m.id).Msg("quarantine record not written")
		return
	}
	s.r.deps.Log.Error().Str("agent_id", m.id).Int("failures", m.failures).Str("reason", m.reason).Msg("agent quarantined")
}
