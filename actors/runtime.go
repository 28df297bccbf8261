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

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/actors/transport"
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
	// wire is what each agent's actor gets besides deps (agent_host.go).
	wire       wiring
	transports *actor.PID // the transports supervisor (see actors/transport)
	mcp        *actor.PID // the MCP servers' supervisor, nil without servers (runtime_mcp.go)
	deliveries *deliveries
	tailsOnce  sync.Once // reportDroppedTails
	damage     damageReports
	// RequestTimeout bounds how long a caller waits for an agent's answer.
	requestTimeout time.Duration

	// mu guards pids, terminating and closed. A request reads an agent's
	// PID and posts to it under mu.RLock, and the agents supervisor removes
	// a PID under mu.Lock before it stops that actor: once removed, no
	// caller's message can reach the actor any more (see
	// agentsSupervisor.retire), so none is lost with its mailbox.
	mu   sync.RWMutex
	pids map[string]*actor.PID // active agents; guarded by mu
	// terminating marks agents stopped by their supervisor after too many
	// crashes whose actor has not terminated yet; guarded by mu.
	terminating map[string]bool
	// children maps the id of each live private child actor to its
	// parent's; guarded by mu. identity remembers the parent of each
	// private child read from its journal (see parentOf).
	children map[string]string
	identity sync.Map
	deleted  deletedAgents // agents deleted, never activated again (agent_tombstones.go)
	fenced   fencedAgents  // agents another node took over (runtime_fencing.go)
	placed   placement     // the agents a cluster placed here (runtime_placement.go)
	view     infoView      // what each running agent last published (info_view.go)
	headers  headerInfos   // the dormant agents' decoded stream headers (agent_listing.go)
	closed   bool          // guarded by mu
	// scrubStop cancels the background scrub and waits for it (scrub.go);
	// guarded by mu.
	scrubStop func()
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
	// NoMemoryIndex keeps no memory index though agents have homes (the
	// memory tools are then not offered): what indexing costs can be
	// measured apart from what homes cost.
	NoMemoryIndex bool
	// MemoryToolsWithoutIndex, with NoMemoryIndex, still offers the
	// memory tools and points the model at them (a call fails: there is
	// no index), so what keeping the index costs is measured with all
	// else equal (memory_flush.go).
	MemoryToolsWithoutIndex bool
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
		pids: make(map[string]*actor.PID), terminating: make(map[string]bool), children: make(map[string]string),
		deliveries: newDeliveries()}
	quarantine := func(who *actor.PID, reason any, failures int) {
		id := agentIDOf(who)
		// Route nothing more to the dying actor; activations of id wait
		// for its Terminated (see agentsSupervisor).
		r.mu.Lock()
		delete(r.pids, id)
		r.terminating[id] = true
		r.mu.Unlock()
		r.sys.Root.Send(r.supervisor, &agentGaveUp{id: id, reason: fmt.Sprint(reason), failures: failures,
			fencedOut: isFencedOut(reason)})
	}
	strategy, err := supervision.NewStrategy(o.Restart, supervision.WithGiveUp(quarantine),
		supervision.WithScheduler(o.Scheduler), supervision.WithClock(deps.Clock.Now))
	if err != nil {
		return nil, err
	}
	fire := func(f timers.Fire) { r.sys.Root.Send(r.supervisor, &timerDue{fire: f}) }
	if r.timers, err = sys.Root.SpawnNamed(timers.ServiceProps(deps.Clock, fire), "timers"); err != nil {
		return nil, fmt.Errorf("start timer service: %w", err)
	}
	// The runtime-owned tools are built once (their schemas by
	// reflection), not at each activation.
	r.wire = wiring{host: runtimeHost{r}, sys: sys, timers: r.timers, childStrategy: strategy,
		opTools: runtimetools.Tools(deps.withDefaults().NotifyOperatorTool), view: &r.view,
		memory: runtimeMemory(deps, o)}
	if r.transports, err = sys.Root.SpawnNamed(transport.SupervisorProps(), "transports"); err != nil {
		return nil, fmt.Errorf("start transports supervisor: %w", err)
	}
	if err := r.startTasks(); err != nil {
		return nil, err
	}
	if err := r.startMCP(o); err != nil {
		return nil, err
	}
	props := actor.PropsFromProducer(func() actor.Actor {
		return &agentsSupervisor{r: r, strategy: strategy,
			waiting: make(map[string][]pending), retiring: make(map[string]*retirement)}
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

// Interrupt ends agent id's turn in flight unless it processes message
// keep ("" spares none), and returns its status.
func (r *Runtime) Interrupt(ctx context.Context, id, keep, reason string) (messages.AgentStatus, error) {
	res, err := r.ask(ctx, id, &Control{Op: OpInterrupt, Reason: reason, KeepMessageID: keep})
	if err != nil {
		return "", err
	}
	cr := res.(*ControlResult)
	return cr.Status, cr.Err
}

// State returns a copy of agent id's state.
func (r *Runtime) State(ctx context.Context, id string) (agentstate.State, error) {
	res, err := r.ask(ctx, id, &GetState{})
	if err != nil {
		return agentstate.State{}, err
	}
	return res.(agentstate.State), nil
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

// SetModel records agent id's model override ("" clears it). The model is
// vetted by AgentDeps.CheckModel first; a refused one changes nothing.
func (r *Runtime) SetModel(ctx context.Context, id, model, reason string) (agentstate.AgentInfo, error) {
	if model != "" && r.deps.CheckModel != nil {
		if err := r.deps.CheckModel(model); err != nil {
			return agentstate.AgentInfo{}, fmt.Errorf("%w: %w", ErrInvalidModel, err)
		}
	}
	res, err := r.ask(ctx, id, &SetModel{Model: model, Reason: reason})
	if err != nil {
		return agentstate.AgentInfo{}, err
	}
	out := res.(*SetModelResult)
	return out.Info, out.Err
}

// RetryModel makes agent id try its waiting model round now, or with
// cancel gives the retry up and fails the turn with its last failure. An
// agent with no retry waiting answers an error wrapping ErrNoModelRetry.
func (r *Runtime) RetryModel(ctx context.Context, id string, cancel bool) (agentstate.AgentInfo, error) {
	res, err := r.ask(ctx, id, &RetryModel{Cancel: cancel})
	if err != nil {
		return agentstate.AgentInfo{}, err
	}
	out := res.(*RetryModelResult)
	return out.Info, out.Err
}

// Info returns agent id's AgentInfo, activating it if needed.
func (r *Runtime) Info(ctx context.Context, id string) (agentstate.AgentInfo, error) {
	res, err := r.ask(ctx, id, &GetInfo{})
	if err != nil {
		return agentstate.AgentInfo{}, err
	}
	return res.(agentstate.AgentInfo), nil
}

// ErrInvalidAgentID is wrapped by the error for an agent id that cannot
// name an agent.
var ErrInvalidAgentID = errors.New("invalid agent id")

// ValidateAgentID checks that id is an agent id an operator or a model may
// name: messages.AgentIDRule.
func ValidateAgentID(id string) error {
	if err := messages.ValidateAgentID(id); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidAgentID, err)
	}
	return nil
}

// checkAgentPath checks that id can name an agent's home and journal: the
// runtime's own routing accepts ids journaled before messages.AgentIDRule.
func checkAgentPath(id string) error {
	if _, err := persistence.AgentHome("/", id); err != nil {
		return fmt.Errorf("%w %q: %v", ErrInvalidAgentID, id, err)
	}
	return nil
}

// Exists reports whether agent id has a journal or a running actor. It
// activates nothing.
func (r *Runtime) Exists(ctx context.Context, id string) (bool, error) {
	if err := ValidateAgentID(id); err != nil {
		return false, err
	}
	if r.deleted.has(ctx, r, id) {
		return false, nil
	}
	r.mu.RLock()
	_, active := r.pids[id]
	r.mu.RUnlock()
	if active {
		return true, nil
	}
	high, err := r.deps.Store.HighestSeq(ctx, id)
	if err != nil {
		return false, fmt.Errorf("look up agent %s: %w", id, err)
	}
	return high > 0, nil
}

// List returns every public agent's info, sorted by id: private children
// are seen through their parents (AgentGet.active_children, TaskStatus),
// not in listings. Active agents answer
// themselves; a dormant agent is described by its snapshot header and
// stays dormant (one without a usable header is activated to answer; a
// private child is reached through its parent then, never started alone).
// A store that lists its stream heads is listed from them and activates
// nothing (agent_listing.go).
func (r *Runtime) List(ctx context.Context) ([]agentstate.AgentInfo, error) {
	if out, ok, err := r.listFromHeads(ctx); ok { // agent_listing.go: never activates
		return out, err
	}
	streams, err := r.deps.Store.Streams(ctx)
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	out := make([]agentstate.AgentInfo, 0, len(streams))
	for _, id := range streams {
		if r.deleted.has(ctx, r, id) {
			continue
		}
		in, err := r.listInfo(ctx, id)
		if err != nil {
			return nil, err
		}
		if in.Visibility == messages.VisibilityPrivate && in.ParentAgentID != "" {
			continue // a private child, described by its own info
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (r *Runtime) listInfo(ctx context.Context, id string) (agentstate.AgentInfo, error) {
	if q, bad := r.storeQuarantine(id); bad {
		return quarantinedInfo(q), nil
	}
	r.mu.RLock()
	_, active := r.pids[id]
	r.mu.RUnlock()
	if in, ok := r.PublishedInfo(ctx, id); active && ok { // info_view.go
		return in, nil
	}
	if !active {
		high, err := r.deps.Store.HighestSeq(ctx, id)
		if err != nil {
			return agentstate.AgentInfo{}, fmt.Errorf("look up agent %s: %w", id, err)
		}
		snap, ok, err := r.deps.Store.LoadSnapshot(ctx, id, persistence.LatestSnapshot())
		if err == nil && ok && snap.Seq == high {
			if in, ok, err := agentstate.SnapshotInfo(snap.Data); err == nil && ok {
				agentstate.ApplyBudgetDefault(&in, r.deps.DefaultTokenBudget)
				return in, nil
			}
		}
		if _, in, ok := r.streamHeader(ctx, id); ok { // stream_header.go
			agentstate.ApplyBudgetDefault(&in, r.deps.DefaultTokenBudget)
			return in, nil
		}
		if r.placedErr(id) != nil { // active on another node (runtime_placement.go)
			return r.elsewhereInfo(ctx, id), nil
		}
	}
	return r.Info(ctx, id)
}

// PendingTimers lists the timers armed in the timer service.
func (r *Runtime) PendingTimers(ctx context.Context) ([]timers.Schedule, error) {
	res, err := r.sys.Root.RequestFuture(r.timers, &timers.Pending{}, r.requestTimeout).Result()
	if err != nil {
		return nil, fmt.Errorf("pending timers: %w", err)
	}
	return res.([]timers.Schedule), nil
}

// Activate makes sure agent id is running (recovering it from its journal
// if it was not) without sending it anything.
func (r *Runtime) Activate(ctx context.Context, id string) error {
	if err := checkAgentPath(id); err != nil {
		return err
	}
	r.mu.RLock()
	_, ok := r.pids[id]
	closed := r.closed
	r.mu.RUnlock()
	switch {
	case closed:
		return ErrRuntimeClosed
	case ok:
		return nil
	}
	res, err := r.sys.Root.RequestFuture(r.supervisor, &activateAgent{id: id}, r.timeout(ctx)).Result()
	if err != nil {
		return fmt.Errorf("activate agent %s: %w", id, err)
	}
	if f, ok := res.(*activationFailed); ok {
		return fmt.Errorf("activate agent %s: %w", id, f.err)
	}
	return nil
}

// timeout is how long a caller waits for an answer: the request timeout,
// or less when ctx ends sooner (0 once it has ended: a future with a
// negative timeout would never time out).
func (r *Runtime) timeout(ctx context.Context) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return max(0, min(r.requestTimeout, time.Until(d)))
	}
	return r.requestTimeout
}

// ask sends msg to agent id and waits for its answer. A running agent is
// asked directly. Any other (dormant, or its actor stopping) is asked
// through the agents supervisor, which activates it and forwards msg with
// the caller as sender, so the agent answers the caller itself.
func (r *Runtime) ask(ctx context.Context, id string, msg any) (any, error) {
	if err := checkAgentPath(id); err != nil {
		return nil, err
	}
	f, err := r.post(id, msg, r.timeout(ctx))
	if err != nil {
		return nil, err
	}
	res, err := f.Result()
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", id, err)
	}
	if f, ok := res.(*activationFailed); ok {
		return nil, fmt.Errorf("activate agent %s: %w", id, f.err)
	}
	return res, nil
}

// post sends msg to agent id as a request answered to the returned future.
// The PID is read and the message posted under one mu.RLock, so the
// message is in the agent's mailbox before the supervisor can begin to
// retire it (which needs mu.Lock), and the agent handles it before it
// decides to stop.
func (r *Runtime) post(id string, msg any, timeout time.Duration) (*actor.Future, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.closed {
		return nil, ErrRuntimeClosed
	}
	if pid, ok := r.pids[id]; ok {
		return r.sys.Root.RequestFuture(pid, msg, timeout), nil
	}
	return r.sys.Root.RequestFuture(r.supervisor, &deliver{id: id, msg: msg}, timeout), nil
}

// Recover brings back every agent with an open fact (queued messages, a
// turn in flight, a pending timer or wake hint), so their work goes on
// without outside requests. An agent whose stream header or latest
// snapshot is at its last event and records no open fact is left dormant: its state is on disk and
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
		settled  = r.dormantByHeads(ctx) // recover_heads.go
	)
	for range 4 * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				if r.deleted.has(ctx, r, id) || settled[id] || r.dormant(ctx, id) {
					continue
				}
				res, err := r.ask(ctx, id, &GetRecovery{})
				mu.Lock()
				switch {
				case errors.Is(err, ErrJournalQuarantined):
					// Contained to this agent: reported below, not resumed.
				case err != nil && firstErr == nil:
					firstErr = fmt.Errorf("recover %s: %w", id, err)
				case err == nil && len(res.([]agentstate.OpenFact)) > 0:
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
	r.tailsOnce.Do(r.reportDroppedTails)
	r.reportStoreDamage()
	return active, firstErr
}

// reportDroppedTails tells each agent whose journal tail the store dropped
// when it opened, so its operator and its model learn of it (once per
// process: the store reports what its own open found).
func (r *Runtime) reportDroppedTails() {
	counts := map[string]int{}
	for _, d := range r.deps.Store.Health().DroppedTails {
		counts[d.Stream]++
	}
	for id, n := range counts {
		if checkAgentPath(id) == nil {
			r.forward(id, &tailDropped{records: n})
		}
	}
}

// isActive reports whether agent id has a running actor.
func (r *Runtime) isActive(id string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, ok := r.pids[id]
	return ok
}

// Active lists the ids of the agents whose actors are running, sorted. An
// agent whose actor is being retired (stopped after passivation) is not
// listed: it is dormant, and its next request activates it again.
func (r *Runtime) Active() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ids := make([]string, 0, len(r.pids))
	for id := range r.pids {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// PassivateIdle passivates every active agent that is idle now, instead
// of after its idle timeout: each saves a snapshot, drops its state and has
// its actor stopped, so it costs nothing but its durable state until its
// next request activates it again. Busy agents are left alone. Agents are
// asked together; it waits until each has settled (its actor gone, or
// kept because it was busy or got work meanwhile) or ctx ends, and reports
// the first agent that did not answer.
func (r *Runtime) PassivateIdle(ctx context.Context) error {
	timeout := r.timeout(ctx)
	if timeout <= 0 {
		return fmt.Errorf("passivate idle agents: %w", context.DeadlineExceeded)
	}
	var (
		ids     []string
		futures []*actor.Future
	)
	r.mu.RLock() // posted under the lock, as in post
	for id, pid := range r.pids {
		ids = append(ids, id)
		futures = append(futures, r.sys.Root.RequestFuture(pid, &passivate{}, timeout))
	}
	r.mu.RUnlock()
	var first error
	for i, f := range futures {
		if _, err := f.Result(); err != nil && first == nil {
			first = fmt.Errorf("passivate %s: %w", ids[i], err)
		}
	}
	return first
}

// dormant reports whether agent id can stay inactive after a restart: its
// stream header (stream_header.go) or its latest snapshot covers its whole
// journal and records no open fact. Any doubt (neither, a tail after them,
// an unreadable header) activates it.
func (r *Runtime) dormant(ctx context.Context, id string) bool {
	if r.headerDormant(ctx, id) { // stream_header.go
		return true
	}
	high, err := r.deps.Store.HighestSeq(ctx, id)
	if err != nil {
		return false
	}
	snap, ok, err := r.deps.Store.LoadSnapshot(ctx, id, persistence.LatestSnapshot())
	if err != nil || !ok || snap.Seq != high {
		return false
	}
	facts, err := agentstate.SnapshotOpenFacts(snap.Data)
	return err == nil && len(facts) == 0
}

// Close passivates idle agents (so the next boot finds their snapshots
// current and leaves them dormant; their actors are retired), then stops
// every other agent (queued actor messages are dropped; everything
// acknowledged is already durable) and the actor system. Agents keep their durable status: a shutdown is not a stop.
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
func (r *Runtime) Halt() error {
	r.abandonTasks() // a dead process leaves its commands running
	return r.halt()
}

func (r *Runtime) halt() error {
	r.mu.Lock()
	closed := r.closed
	r.closed = true
	r.mu.Unlock()
	if closed {
		return nil
	}
	r.stopScrub()
	r.deliveries.stop()
	if err := r.sys.Root.StopFuture(r.supervisor).Wait(); err != nil {
		return fmt.Errorf("stop agents: %w", err)
	}
	if err := r.stopTasks(); err != nil {
		return err
	}
	if err := r.stopMCP(); err != nil {
		return err
	}
	if err := r.sys.Root.StopFuture(r.timers).Wait(); err != nil {
		return fmt.Errorf("stop timer service: %w", err)
	}
	if err := r.stopTransports(); err != nil {
		return err
	}
	r.wire.memory.stop()
	r.sys.Shutdown()
	return nil
}

// timerDue carries a fire from the timer service to the agents supervisor.
type timerDue struct{ fire timers.Fire }

// activateAgent asks the agents supervisor to activate agent id. The reply
// is its *actor.PID or *activationFailed.
type activateAgent struct{ id string }

// deliver asks the agents supervisor to activate agent id and forward msg
// to it with deliver's own sender, who gets the agent's answer (or
// *activationFailed).
type deliver struct {
	id  string
	msg any
}

// activationFailed answers a request the supervisor could not deliver
// because the agent's actor could not be spawned. No agent answers with it.
type activationFailed struct{ err error }

// Failure implements tasks.Failure.
func (f *activationFailed) Failure() error { return f.err }

// agentGaveUp tells the supervisor an agent exhausted its restart budget.
type agentGaveUp struct {
	id       string
	reason   string
	failures int
	// fencedOut: the activation was superseded on another node
	// (activation.go), which is no fault of the agent's.
	fencedOut bool
}

// retireAgent is how a passivated agent asks its supervisor to stop its
// actor. reply, when not nil, is answered true once the actor is gone,
// false when it stays.
type retireAgent struct {
	who, reply *actor.PID
}

// releasePID is sent to the PID of a terminated agent actor only so that
// the PID drops its cached pointer to the dead actor, which protoactor
// clears when something is sent to a PID whose process is dead. The
// supervisor's set of children keeps removed PIDs in its backing array
// (PIDSet.Remove only shortens the slice), so without this every retired
// agent's dead actor (its context, mailbox and agent, ≈ 3 KB) would stay
// reachable until as many agents were spawned again. It goes to the dead
// letters without a log line, or to a new incarnation, which ignores it.
type releasePID struct{}

// IgnoreDeadLetterLogging keeps releasePID out of protoactor's dead-letter
// log.
func (*releasePID) IgnoreDeadLetterLogging() {}

// Priority implements mailbox.Prioritized.
func (*releasePID) Priority() messages.Priority { return messages.PriorityBackground }

// retireRefused tells the supervisor that an agent asked to retire got work
// since it asked, so it keeps running.
type retireRefused struct{ who *actor.PID }

// agentsSupervisor is the parent of every agent actor, and the one place
// that activates and retires them, one message at a time. Its strategy
// restarts a panicking agent with backoff and, past the budget, stops it
// and reports agentGaveUp, which quarantines the agent durably.
//
// While an agent's actor is stopping (retiring, or quarantined), whatever
// comes for it (activations, forwarded requests, timer fires) waits in
// waiting and is delivered, in order, once the actor is gone (to a fresh
// one) or, when a retirement is refused, to the same actor.
type agentsSupervisor struct {
	r        *Runtime
	strategy *supervision.Strategy
	waiting  map[string][]pending
	// retiring holds the agents sent retire that have not answered.
	retiring map[string]*retirement
}

// pending is something for an agent that waits for its actor to stop.
type pending struct {
	msg    any        // nil for an activation, answered with the PID
	sender *actor.PID // who gets the answer; nil for a timer fire
	// flat delivers to the agent as a plain agent even if it is a private
	// child: its parent no longer supervises it.
	flat bool
}

// retirement is one agent's retirement in progress.
type retirement struct {
	pid *actor.PID
	// replies are answered when it is settled (Runtime.PassivateIdle).
	replies []*actor.PID
}

// Receive dispatches one message; each case is one method.
func (s *agentsSupervisor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *activateAgent:
		s.route(c, m.id, pending{sender: c.Sender()})
	case *deliver:
		s.route(c, m.id, pending{msg: m.msg, sender: c.Sender()})
	case *deliverPending:
		s.route(c, m.id, m.p)
	case *childGone:
		s.terminated(c, m.who)
	case *timerDue:
		s.timerDue(c, m.fire)
	case *retireAgent:
		s.retire(c, m)
	case *retireRefused:
		s.refused(c, m.who)
	case *agentGaveUp:
		s.quarantine(m)
	case *actor.Terminated:
		s.terminated(c, m.Who)
	}
}

// agentsPrefix is the agents supervisor's name; its children's PIDs are
// "agents/<agent id>".
const agentsPrefix = "agents/"

// agentIDOf returns the agent id of an agent actor's PID: the last name
// of "agents/<id>" or, for a private child, "agents/<parent>/…/<id>".
func agentIDOf(pid *actor.PID) string { return pid.Id[strings.LastIndexByte(pid.Id, '/')+1:] }

// route hands p to agent id now, or keeps it until the agent's stopping
// actor is gone.
func (s *agentsSupervisor) route(c actor.Context, id string, p pending) {
	if s.stopping(id) {
		s.waiting[id] = append(s.waiting[id], p)
		return
	}
	s.deliver(c, id, p)
}

// stopping reports whether agent id's actor is being retired or
// quarantined.
func (s *agentsSupervisor) stopping(id string) bool {
	if s.retiring[id] != nil {
		return true
	}
	s.r.mu.RLock()
	defer s.r.mu.RUnlock()
	return s.r.terminating[id]
}

// timerDue delivers a fire, activating the agent if it is not running: a
// retired agent's timers stay armed in the timer service and wake it. A
// quarantined agent is stopped for good: its fires are dropped and its
// timers re-armed when it is resumed.
func (s *agentsSupervisor) timerDue(c actor.Context, f timers.Fire) {
	p := pending{msg: &timerFired{fire: f}}
	if s.retiring[f.AgentID] != nil {
		s.waiting[f.AgentID] = append(s.waiting[f.AgentID], p)
		return
	}
	if !s.stopping(f.AgentID) {
		s.deliver(c, f.AgentID, p)
	}
}

// deliver activates agent id if it is not running and hands it p. A
// private child without a running actor is reached through its parent.
func (s *agentsSupervisor) deliver(c actor.Context, id string, p pending) {
	if !p.flat && !s.r.isActive(id) && routingDepth(p) < maxChildRouting {
		if parent := s.r.parentOf(id); parent != "" {
			s.route(c, parent, pending{msg: &forChild{id: id, p: p}})
			return
		}
	}
	pid, err := s.activate(c, id)
	switch {
	case err != nil && p.sender != nil:
		c.Send(p.sender, &activationFailed{err: err})
	case err != nil:
		if !errors.Is(err, ErrRuntimeClosed) {
			s.r.deps.Log.Error().Err(err).Str("agent_id", id).Msg("timer fire not delivered")
		}
	case p.msg == nil:
		c.Send(p.sender, pid)
	case p.sender != nil:
		c.RequestWithCustomSender(pid, p.msg, p.sender)
	default:
		c.Send(pid, p.msg)
	}
}

// activate returns the PID of agent id, spawning (and so recovering) it
// when it is not running. It spawns nothing once the runtime is closed.
func (s *agentsSupervisor) activate(c actor.Context, id string) (*actor.PID, error) {
	s.r.mu.RLock()
	pid, ok := s.r.pids[id]
	closed := s.r.closed
	s.r.mu.RUnlock()
	switch {
	case closed:
		return nil, ErrRuntimeClosed
	case ok:
		return pid, nil
	}
	if q, bad := s.r.storeQuarantine(id); bad {
		return nil, quarantinedErr(q) // never resumed from what is left
	}
	if s.r.deleted.has(context.Background(), s.r, id) {
		return nil, fmt.Errorf("agent %s: %w", id, ErrAgentDeleted)
	}
	if err := s.r.fencedErr(id); err != nil {
		return nil, err
	}
	if err := s.r.placedErr(id); err != nil {
		return nil, err
	}
	pid, err := c.SpawnNamed(agentProps(id, s.r.deps, s.r.wire), id)
	if err != nil {
		return nil, fmt.Errorf("spawn agent %s: %w", id, err)
	}
	s.r.mu.Lock()
	s.r.pids[id] = pid
	s.r.mu.Unlock()
	return pid, nil
}

// retire starts stopping the actor of a passivated agent. Its PID leaves
// Runtime.pids first, under mu.Lock: every request posted to it before is
// already in its mailbox, and every later one comes here and waits. Then
// the agent gets retire, in its background band, so behind all of those
// requests: it stops itself if none of them was work, and refuses
// (retireRefused) otherwise.
func (s *agentsSupervisor) retire(c actor.Context, m *retireAgent) {
	id := agentIDOf(m.who)
	if rt := s.retiring[id]; rt != nil {
		rt.replies = append(rt.replies, m.reply)
		return
	}
	s.r.mu.Lock()
	pid, ok := s.r.pids[id]
	current := ok && pid.Equal(m.who)
	if current {
		delete(s.r.pids, id)
	}
	s.r.mu.Unlock()
	if !current { // quarantined, or the runtime is closing
		answer(c, []*actor.PID{m.reply}, false)
		return
	}
	s.retiring[id] = &retirement{pid: m.who, replies: []*actor.PID{m.reply}}
	c.Send(m.who, &retire{})
}

// refused puts an agent that got work while it was retiring back into
// Runtime.pids and hands it what waited meanwhile.
func (s *agentsSupervisor) refused(c actor.Context, who *actor.PID) {
	id := agentIDOf(who)
	rt := s.retiring[id]
	if rt == nil || !rt.pid.Equal(who) {
		return // it terminated first (crashed): terminated settled it
	}
	delete(s.retiring, id)
	s.r.mu.Lock()
	quarantined := s.r.terminating[id]
	if !quarantined {
		s.r.pids[id] = who
	}
	s.r.mu.Unlock()
	answer(c, rt.replies, false)
	if !quarantined { // else waiting is handed over when it terminates
		s.flush(c, id)
	}
}

// terminated settles an agent actor that is gone (retired, quarantined,
// or stopped with the runtime) and hands what waited for it to a new one.
func (s *agentsSupervisor) terminated(c actor.Context, who *actor.PID) {
	id := agentIDOf(who)
	s.strategy.Forget(who)
	c.Send(who, &releasePID{})
	s.r.mu.Lock()
	if s.r.pids[id] != nil && s.r.pids[id].Equal(who) {
		delete(s.r.pids, id)
	}
	delete(s.r.terminating, id)
	s.r.mu.Unlock()
	if rt := s.retiring[id]; rt != nil {
		delete(s.retiring, id)
		answer(c, rt.replies, true)
	}
	s.flush(c, id)
}

// flush delivers, in order, what waited for agent id.
func (s *agentsSupervisor) flush(c actor.Context, id string) {
	queued := s.waiting[id]
	delete(s.waiting, id)
	for _, p := range queued {
		s.deliver(c, id, p)
	}
}

// answer sends v to each non-nil reply PID.
func answer(c actor.Context, replies []*actor.PID, v bool) {
	for _, pid := range replies {
		if pid != nil {
			c.Send(pid, v)
		}
	}
}

// quarantine records, in the agent's own journal, why it was stopped for
// good (Runtime.recordQuarantine).
func (s *agentsSupervisor) quarantine(m *agentGaveUp) { s.r.recordQuarantine(m) }
