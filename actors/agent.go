package actors

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/jonboulle/clockwork"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/mailbox"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/actors/tasks"
	"github.com/holon-actors/holon-actors/mcp"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/secrets"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/tools"
)

// AgentDeps is what every agent of a runtime shares. All of it is safe for
// concurrent use.
type AgentDeps struct {
	Store    persistence.Store
	Provider providers.Provider
	Tools    *tools.Registry
	Clock    clockwork.Clock
	Log      zerolog.Logger
	// SystemPrompt opens every prompt frame.
	SystemPrompt string
	// QueueLimit bounds an agent's queued messages; beyond it admission
	// answers ErrQueueFull.
	QueueLimit int
	// SnapshotEvery is how many events an agent applies between snapshots,
	// at least: an agent whose snapshot is large waits until it has
	// journaled as many bytes (snapshot_cadence.go).
	SnapshotEvery int
	// IdleTimeout is how long an agent stays idle (no turn, empty queue)
	// before it passivates: it saves a snapshot, drops its state and its
	// actor is stopped, so it costs nothing but its durable state; its next
	// request (or a timer fire) activates it again from the snapshot. 0
	// means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// DefaultAgentID is the agent untargeted input goes to; it is created
	// with kind default. Empty means DefaultAgentID.
	DefaultAgentID string
	// CheckModel, when set, vets a model override before it is recorded
	// (e.g. that the runtime can build a transport for it).
	CheckModel func(model string) error
	// Fault, when set, is called at named points of an agent: "start",
	// before each message it handles, with the message's Go type (e.g.
	// "*actors.stepDone"), and "retire" when its actor stops after
	// passivation (it is no longer in Runtime.Active by then). A panic from
	// it is a crash of the agent. It exists for fault-injection tests and
	// is nil in production.
	Fault func(agentID, point string)
	// ToolEnv binds each tool call to the agent's execution root,
	// artifacts, tasks and inspector (see ToolEnv).
	ToolEnv ToolEnv
	// NotifyOperatorTool exposes the NotifyOperator tool to the model. It
	// is a profile option, off by default: operator delivery is runtime
	// policy (RFC operator notification, 2026-05 update).
	NotifyOperatorTool bool
	// Notifier delivers the primary operator's notifications to an
	// external surface (a signed webhook); nil keeps them inspectable
	// through the control API and the event stream only.
	Notifier Notifier
	// NotificationFilter decides, at delivery time, which system
	// notifications reach the model; the journal records them all.
	NotificationFilter messages.NotificationFilter
	// MaxActiveChildren bounds the private children an agent supervises at
	// once; 0 means DefaultMaxActiveChildren.
	MaxActiveChildren int
	// DefaultTokenBudget is the token budget of an agent that never had
	// one set (see TokenBudgetState); 0 means unlimited.
	DefaultTokenBudget uint64
	// LoopBreakerRepeats is how many identical tool calls with identical
	// results in a row end a turn (see loop_breaker.go); 0 means
	// DefaultLoopBreakerRepeats, negative disables the loop breaker.
	LoopBreakerRepeats int
	// WorkItemReminder configures the stale work-item progress reminder.
	WorkItemReminder WorkItemReminder
	// Compaction configures conversation compaction (compaction.go).
	Compaction agentstate.Compaction
	// ModelRetry configures the durable retry of retryable model failures
	// (model_retry_policy.go); the zero value fails such turns at once.
	ModelRetry ModelRetry
	// Timers bounds each agent's created timers (timer_api.go); zero
	// fields take agentstate's defaults.
	Timers agentstate.TimerLimits
	// CommandPolicies are the configured command policies (config.json
	// command_policy): an agent without its own (CommandPolicySet) runs
	// its commands under CommandPolicies.For(id); none allows everything.
	CommandPolicies messages.CommandPolicies
	// ToolApproval is the configured tool approval policy (config.json
	// tool_approval); MCP tools marked destructive default to ask
	// (agent_mcp.go).
	ToolApproval messages.ToolApprovals
	// MCP serves the agents' MCP servers' tools; nil offers none.
	MCP *mcp.Manager
	// Secrets are the runtime's credential values, scrubbed from agents'
	// snapshots, the artifacts their tools write and the notifications
	// they send (the journal scrubs events itself: persistence
	// Options.Redact). Nil scrubs nothing.
	Secrets *secrets.Registry
	// Telemetry turns the agents' events into traces, metrics and log
	// lines (package telemetry); nil records none.
	Telemetry *telemetry.Telemetry
	// Node is the cluster node's name; set, each activation journals
	// agent_activated first and stops for good when fenced out
	// (activation.go). Empty on a single node.
	Node string
}

// DefaultQueueLimit and DefaultSnapshotEvery are used when AgentDeps leaves
// them zero.
const (
	DefaultQueueLimit    = 1000
	DefaultSnapshotEvery = 200
	DefaultIdleTimeout   = time.Minute
	DefaultAgentID       = "main"
)

func (d AgentDeps) withDefaults() AgentDeps {
	if d.QueueLimit <= 0 {
		d.QueueLimit = DefaultQueueLimit
	}
	if d.SnapshotEvery <= 0 {
		d.SnapshotEvery = DefaultSnapshotEvery
	}
	if d.Clock == nil {
		d.Clock = clockwork.NewRealClock()
	}
	if d.Tools == nil {
		d.Tools, _ = tools.NewRegistry()
	}
	if d.IdleTimeout <= 0 {
		d.IdleTimeout = DefaultIdleTimeout
	}
	if d.DefaultAgentID == "" {
		d.DefaultAgentID = DefaultAgentID
	}
	return d
}

// incarnation is shared by the successive instances of one agent actor
// across supervisor restarts, so the new instance knows the old one panicked.
type incarnation struct {
	panicked bool
}

// agent is the actor of one agent. Its state changes only in Receive, and
// only by applying events it has just made durable (persist).
type agent struct {
	id   string
	deps AgentDeps
	wire wiring
	inc  *incarnation

	state *agentstate.State
	// plans caches its work items' plan artifacts (plan_cache.go).
	plans planCache
	// guide caches its instruction files (guidance_cache.go).
	guide guidanceCache
	// mcp caches its MCP servers' tools (agent_mcp.go).
	mcp mcpCatalog
	// reads are the method values every decision's Env carries, made once
	// (agent_decide.go).
	reads *envReads
	// gen is the current step generation; stepping is true while a step
	// goroutine of generation gen is running.
	gen      uint64
	stepping bool
	stepKind stepKind
	// sinceSnapshot counts events applied since the last snapshot;
	// snaps paces snapshots by their size (snapshot_cadence.go).
	sinceSnapshot int
	snaps         snapshotCadence
	// stage holds batches applied ahead of their append (agent_staging.go).
	stage stagedAppend
	// headerSeq is the seq of the stream header it last published, and
	// viewSeq the seq of the info it last published (info_view.go).
	headerSeq uint64
	viewSeq   uint64
	// passive is the agent's info when its state was dropped.
	passive agentstate.AgentInfo
	// recovered is what this incarnation found open when it started.
	recovered []agentstate.OpenFact
	// idle fires passivation after IdleTimeout without work; idleGen
	// discards a timer that fired after work resumed.
	idle    clockwork.Timer
	idleGen uint64

	// ctx bounds every step goroutine; cancelled on stop and restart.
	ctx    context.Context
	cancel context.CancelFunc

	// children are the live actors of the private children it supervises.
	children map[string]*actor.PID
	// git is what its children's worktree goroutines have under way.
	git childGit
	// childrenDue is set when a batch started a child's supervision task:
	// its actor starts before Receive returns (startChildren).
	childrenDue bool
	// halting is set once the actor stops or restarts: its children stop
	// with it, and that is not their failure.
	halting bool
	// archivedAs is how this child's supervision ended, once archived;
	// archiving is set while it stops its tasks and children to archive
	// (it starts no turn meanwhile).
	archivedAs string
	archiving  bool
	// ancestorOver is set while an ancestor's token budget, which counts
	// this agent's spend, is spent (budget.go).
	ancestorOver *ancestorBudget
	// damaged is set when the store quarantined this agent's journal: the
	// agent has no state and refuses every request (journal_damage.go).
	damaged error
	// fenced is set once another activation superseded this one
	// (activation.go); fencedStopping once its actor was told to stop.
	fenced         *fencedOutError
	fencedStopping bool
}

// AgentProps returns the Props of the actor of agent id, with its band
// mailbox. The agent recovers its state from the journal when it starts.
func AgentProps(id string, deps AgentDeps) *actor.Props {
	return agentProps(id, deps, wiring{})
}

// agentProps is AgentProps wired to a runtime by w.
func agentProps(id string, deps AgentDeps, w wiring) *actor.Props {
	deps = deps.withDefaults()
	if w.opTools == nil {
		w.opTools = runtimetools.Tools(deps.NotifyOperatorTool)
	}
	inc := &incarnation{}
	opts := []actor.PropsOption{actor.WithMailbox(mailbox.Banded(nil))}
	if w.childStrategy != nil {
		opts = append(opts, actor.WithSupervisor(w.childStrategy))
	}
	return actor.PropsFromProducer(func() actor.Actor {
		return &agent{id: id, deps: deps, wire: w, inc: inc}
	}, opts...)
}

// Receive dispatches one message; see the types in agent_messages.go.
func (a *agent) Receive(c actor.Context) {
	defer a.publishInfo(c)
	if m, ok := c.Message().(*scrubFound); ok {
		a.scrubDamaged(c, m)
		return
	}
	if a.damaged != nil {
		a.refuse(c, a.damaged)
		return
	}
	if a.fenced != nil {
		a.refuse(c, a.fenced)
		return
	}
	defer a.stopFenced(c)
	switch c.Message().(type) {
	case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting, *actor.Terminated, *passivate, *retire, *GetInfo, *releasePID:
	default:
		if a.deps.Fault != nil {
			a.deps.Fault(a.id, fmt.Sprintf("%T", c.Message()))
		}
		a.ensureState()
		if a.fenced != nil {
			a.refuse(c, a.fenced)
			return
		}
		defer a.armIdle(c)
		defer a.startChildren(c)
	}
	switch m := c.Message().(type) {
	case *actor.Started:
		a.start(c)
		a.armIdle(c)
	case *Admit:
		// Acknowledge as soon as the admission is durable, then work.
		c.Respond(a.admit(m.Envelope))
		a.advance(c)
	case *Control:
		c.Respond(a.control(m))
		a.advance(c)
	case *familyControl:
		a.control(&Control{Op: m.op, Reason: m.reason})
		a.advance(c)
	case *GetRecovery:
		c.Respond(a.recovered)
	case *GetState:
		c.Respond(a.copyState())
	case *getOperatorView:
		c.Respond(&operatorView{suspensions: a.state.SuspensionList(), notifications: a.state.NotificationList()})
	case *GetInfo:
		c.Respond(a.info())
	case *SetModel:
		c.Respond(a.setModel(m))
	case *RetryModel:
		c.Respond(a.retryModel(m))
		a.advance(c)
	case *SetCommandPolicy:
		c.Respond(a.setCommandPolicy(m))
	case *SetMCPSelection:
		c.Respond(a.setMCPSelection(m))
	case *useWorkspace, *detachWorkspace, *getWorkspaces:
		c.Respond(a.answerWorkspaces(m))
	case *guidanceWhere, *debugPrompt, *loadedGuidance:
		c.Respond(a.answerGuidance(m))
	case *stepDone:
		a.stepFinished(c, m)
	case *WakeHintRequest:
		c.Respond(a.wakeHint(m))
		a.advance(c)
	case *timerFired:
		a.timerFired(m.fire)
		a.advance(c)
	case *respondSuspension:
		c.Respond(a.respond(m))
		a.advance(c)
	case *queueNotification:
		c.Respond(&notificationQueued{err: a.queueSystem(m.n)})
		a.advance(c)
	case *childNotification:
		a.childNotified(m)
		a.advance(c)
	case *deliveryReported:
		a.deliveryStep(m)
	case *tailDropped:
		a.journalTailDropped(m)
		a.advance(c)
	case *journalDamaged:
		a.recordDamage(m)
	case *tasks.Waiting:
		a.taskWaitsForInput(m)
		a.advance(c)
	case *SetTokenBudget:
		c.Respond(a.setTokenBudget(m))
		a.advance(c)
	case *childUsage:
		a.childUsed(m)
	case *ancestorBudget:
		a.ancestorBudgetChanged(m)
	case tasks.Request:
		a.taskRequest(c, m)
	case toolsRequest:
		a.toolsRequest(c, m)
	case *kick:
		a.advance(c)
	case *forChild:
		a.forChild(c, m)
	case *archiveChild:
		a.archive(c, m)
	case *archiveReady:
		a.archiveNow(c, m.status, m.reason, m.replies)
	case *childFinished:
		a.endChild(c, m, c.Sender())
	case *worktreeMade:
		a.worktreeMadeBack(c, m)
	case *worktreeCleaned:
		a.worktreeCleanedBack(c, m)
	case *observeChild:
		c.Respond(a.observation())
	case *actor.Terminated:
		if a.childTerminated(c, m.Who) {
			a.advance(c)
		}
	case *enqueueWorkItem:
		c.Respond(a.enqueue(m))
		a.advance(c)
	case *timerOp:
		c.Respond(a.timerOp(m))
		a.advance(c)
	case *getWorkItems:
		a.answerWorkItems(c)
	case *plansRead:
		if a.plansReadBack(m) {
			a.advance(c)
		}
	case *guidanceRead:
		if a.guidanceReadBack(m) {
			a.advance(c)
		}
	case *mcpToolsRead:
		if a.mcpToolsReadBack(m) {
			a.advance(c)
		}
	case *passivate:
		a.passivate(c, m)
	case *retire:
		a.retire(c)
	case *actor.Restarting:
		a.inc.panicked = true
		a.stop()
	case *actor.Stopping:
		a.stop()
	}
}

func (a *agent) stop() {
	a.halting = true
	if a.cancel != nil {
		a.cancel()
	}
	if a.idle != nil {
		a.idle.Stop()
	}
}

// armIdle (re)starts the idle timer when the agent has nothing to do. The
// timer only sends a message: passivation happens in Receive.
func (a *agent) armIdle(c actor.Context) {
	a.idleGen++
	if a.idle != nil {
		a.idle.Stop()
		a.idle = nil
	}
	if a.state == nil || !a.isIdle() {
		return
	}
	gen, self, root := a.idleGen, c.Self(), c.ActorSystem().Root
	a.idle = a.deps.Clock.AfterFunc(a.deps.IdleTimeout, func() { root.Send(self, &passivate{gen: gen}) })
}

// isIdle: no step running, no turn in flight, nothing queued.
func (a *agent) isIdle() bool {
	return !a.stepping && a.state.Turn == nil && a.state.Queue.Len() == 0
}

// passivate makes an idle agent cost nothing but its durable state: it
// saves a snapshot, drops its state from memory and asks its supervisor to
// retire (stop) its actor; the next request activates it again from the
// snapshot. A busy agent, a stale idle timer or a snapshot that could not
// be saved leaves it as it is. An already passive agent (its retirement
// refused or in progress) asks again.
func (a *agent) passivate(c actor.Context, m *passivate) {
	underParent := a.wire.host != nil && c.Parent() != nil && !c.Parent().Equal(a.wire.host.Supervisor())
	if underParent || (a.state != nil && len(a.state.RunningChildTasks()) > 0) {
		// A supervised child lives under its parent's actor (it stops when
		// archived), and a parent keeps its children's actors: neither
		// retires. An idle one still saves its snapshot, so a restart
		// replays little.
		if a.state != nil && a.isIdle() && a.sinceSnapshot > 0 {
			a.saveSnapshot()
		}
		if c.Sender() != nil {
			c.Respond(false)
		}
		return
	}
	if a.state != nil && !a.dropState(m) {
		if c.Sender() != nil {
			c.Respond(false)
		}
		return
	}
	c.Send(c.Parent(), &retireAgent{who: c.Self(), reply: c.Sender()})
}

// dropState saves a snapshot of an idle agent and drops its state; false
// when it is busy, m comes from a stale idle timer, or the snapshot was not
// saved (keep the state rather than replay a long tail).
func (a *agent) dropState(m *passivate) bool {
	if !a.isIdle() || (m.gen != 0 && m.gen != a.idleGen) {
		return false
	}
	if a.sinceSnapshot > 0 {
		a.saveSnapshot()
		if a.sinceSnapshot > 0 {
			return false
		}
	}
	a.passive = a.state.Info()
	a.state = nil
	return true
}

// retire answers the supervisor, which has taken the agent out of
// Runtime.pids: the actor stops if the agent is still passive, that is if
// nothing but GetInfo reached it since it asked (every other message
// reloads its state), and refuses otherwise. retire sits behind every
// request posted before the PID was removed, and none can be posted after,
// so stopping loses nothing.
func (a *agent) retire(c actor.Context) {
	if a.state != nil {
		c.Send(c.Parent(), &retireRefused{who: c.Self()})
		return
	}
	if a.deps.Fault != nil {
		a.deps.Fault(a.id, "retire")
	}
	c.Stop(c.Self())
}

// info answers GetInfo, from the state or, when passivated, from what the
// state was when it was dropped (nothing changes while it is dropped).
func (a *agent) info() agentstate.AgentInfo {
	in := a.passive
	if a.state != nil {
		in = a.state.Info()
	}
	in.Active = true
	in.LoadedAgentsMD = a.guide.g.Sources()
	agentstate.ApplyBudgetDefault(&in, a.deps.DefaultTokenBudget)
	return in
}

// ensureState reloads a passivated agent's state.
func (a *agent) ensureState() {
	if a.state != nil {
		return
	}
	st, err := a.recoverState()
	if err != nil {
		panic(fmt.Errorf("reactivate agent %s: %w", a.id, err))
	}
	if a.reloadedElsewhere(st.LastSeq) {
		return
	}
	a.state = st
}

// start recovers the agent from its latest snapshot and the journal tail,
// creates it if it never existed, and resumes whatever was in flight.
func (a *agent) start(c actor.Context) {
	a.ctx, a.cancel = context.WithCancel(context.Background())
	if a.deps.Fault != nil {
		a.deps.Fault(a.id, "start")
	}
	st, err := a.recoverState()
	if errors.Is(err, persistence.ErrQuarantined) {
		a.startDamaged(err)
		return
	}
	if err != nil {
		panic(fmt.Errorf("recover agent %s: %w", a.id, err)) // supervision decides
	}
	a.state = st
	a.recovered = agentstate.OpenFacts(st)
	if st.LastSeq == 0 {
		kind, preset := messages.AgentNamed, "public_named"
		if a.id == a.deps.DefaultAgentID {
			kind, preset = messages.AgentDefault, "default"
		}
		a.mustPersist(
			messages.AgentCreated{AgentID: a.id, Kind: kind, Visibility: messages.VisibilityPublic,
				Ownership: messages.OwnershipSelfOwned, ProfilePreset: preset},
			a.statusChange(messages.StatusAwakeIdle, "created"),
		)
	}
	a.activate()
	a.repairConversation()
	if a.startChild(c) {
		return
	}
	a.rearmTimers()
	a.recoverTasks(c)
	a.ensureChildren(c)
	a.redeliverNotifications()
	a.reportUsage(messages.TokenUsage{}) // heals a report lost with the last process
	if a.inc.panicked && a.state.Turn != nil {
		// A panic may come from the turn itself: do not replay it into
		// another panic. End it as interrupted and tell the operator.
		a.inc.panicked = false
		a.failTurn(messages.TerminalInterrupted, agentstate.CodeAgentRestarted,
			"The agent crashed during this turn and was restarted; the turn was interrupted.")
	}
	a.advance(c)
}

// recoverState loads the latest snapshot and applies the journal after it.
// The events replayed count toward the next snapshot, so an agent rebuilt
// from a long tail snapshots when it next settles.
func (a *agent) recoverState() (*agentstate.State, error) {
	st, replayed, err := loadState(a.deps.Store, a.id, a.deps.Log)
	if err != nil {
		return nil, err
	}
	a.sinceSnapshot, a.snaps = replayed, snapshotCadence{}
	st.RestoreSkills()
	return st, nil
}

// loadState rebuilds agent id's state from its latest snapshot and the
// journal after it; replayed counts the events applied after the
// snapshot.
func loadState(store persistence.Store, id string, log zerolog.Logger) (st *agentstate.State, replayed int, err error) {
	ctx := context.Background()
	st = &agentstate.State{ID: id, Status: messages.StatusBooting}
	snap, ok, err := store.LoadSnapshot(ctx, id, persistence.LatestSnapshot())
	if err != nil {
		return nil, 0, err
	}
	if ok {
		// A snapshot is a cache of the journal: one that cannot be decoded
		// is skipped and the whole journal replayed instead.
		restored, err := agentstate.RestoreState(snap.Data)
		if err != nil {
			log.Warn().Err(err).Str("agent_id", id).Uint64("seq", snap.Seq).
				Msg("snapshot unreadable; replaying the whole journal")
		} else {
			st = restored
		}
	}
	evs, err := store.Read(ctx, id, st.LastSeq+1, ^uint64(0), 0)
	if err != nil {
		return nil, 0, err
	}
	for _, ev := range evs {
		if err := st.Apply(ev); err != nil {
			return nil, 0, err
		}
	}
	return st, len(evs), nil
}

// persist makes payloads durable as one atomic batch, applies them, then
// does what they ask of the world (effects).
// The append is fenced at the last applied seq: if another writer moved
// the stream, the append fails and nothing is applied.
func (a *agent) persist(payloads ...messages.Payload) error {
	if a.fenced != nil {
		return a.fenced
	}
	a.flushStaged() // what was staged before comes first (agent_staging.go)
	now := a.deps.Clock.Now()
	payloads = a.observe(now, payloads)
	evs, decoded, err := a.events(now, payloads)
	if err != nil {
		return err
	}
	t0 := time.Now()
	first, err := a.appendAfter(a.state.LastSeq, evs)
	if err != nil {
		return a.appendFailed(err)
	}
	a.appended(time.Since(t0), evs)
	for i := range evs {
		evs[i].Seq = first + uint64(i)
		if err := a.state.ApplyDecoded(evs[i], decoded[i]); err != nil {
			panic(err) // an event we just wrote must apply: programmer error
		}
	}
	a.journaled(evs)
	a.effects(payloads)
	a.wire.memory.write(a.id, decoded, now, first) // the scrubbed records, as journaled
	return nil
}

// events makes the journal events of payloads, recorded at now, without
// the runtime's secrets, each with the payload decoded from it.
func (a *agent) events(now time.Time, payloads []messages.Payload) ([]messages.Event, []messages.Payload, error) {
	evs := make([]messages.Event, len(payloads))
	decoded := make([]messages.Payload, len(payloads))
	for i, p := range payloads {
		ev, d, err := messages.NewEventDecoded(a.id, now, p)
		if err == nil {
			ev, d, err = a.scrubbed(ev, d)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("event %s: %w", p.EventType(), err)
		}
		evs[i], decoded[i] = ev, d
	}
	return evs, decoded, nil
}

// journaled counts evs, just made durable and applied, toward the next
// snapshot, and saves one when it is due between turns.
func (a *agent) journaled(evs []messages.Event) {
	a.sinceSnapshot += len(evs)
	a.snaps.appended(evs)
	if a.sinceSnapshot >= a.deps.SnapshotEvery && a.snaps.due() && a.state.Turn == nil {
		a.saveSnapshot()
	}
}

// scrubbed is ev without the runtime's secrets, decoded again when that
// changed it: the agent applies what the journal keeps, so its live state
// (what its model, transcript and status show) holds no secret either.
func (a *agent) scrubbed(ev messages.Event, d messages.Payload) (messages.Event, messages.Payload, error) {
	red := a.deps.Secrets.RedactBytes(ev.Payload)
	if bytes.Equal(red, ev.Payload) {
		return ev, d, nil
	}
	ev.Payload = red
	d, err := ev.Decode()
	return ev, d, err
}

// mustPersist is persist for steps that cannot go on without their event:
// a failure panics, and the supervisor restarts the agent from its journal.
func (a *agent) mustPersist(payloads ...messages.Payload) {
	if a.staging() {
		a.stageBatch(payloads)
		return
	}
	if err := a.persist(payloads...); err != nil {
		panic(fmt.Errorf("agent %s: journal write: %w", a.id, err))
	}
}

// saveSnapshot stores the state between turns and drops older snapshots.
// A failure only means a longer replay next time, so it is logged.
func (a *agent) saveSnapshot() {
	began := time.Now()
	data, err := a.state.SnapshotRedacted(a.deps.Secrets.RedactBytes)
	if err == nil {
		err = a.deps.Store.SaveSnapshot(context.Background(), persistence.Snapshot{
			Stream: a.id, Seq: a.state.LastSeq, Timestamp: a.deps.Clock.Now(), Data: data,
		})
	}
	if err == nil && a.state.LastSeq > 0 {
		// The one this activation saved before is deleted by its key; the
		// first looks for older ones (a seek over the deleted keys of every
		// snapshot before was most of a snapshot's cost).
		if prev, ok := a.snaps.replaced(a.state.LastSeq); ok {
			err = a.deps.Store.DeleteSnapshot(context.Background(), a.id, prev)
		} else {
			err = a.deps.Store.DeleteSnapshots(context.Background(), a.id, persistence.AtOrBelow(a.state.LastSeq-1))
		}
	}
	if err != nil {
		a.deps.Log.Warn().Err(err).Str("agent_id", a.id).Uint64("seq", a.state.LastSeq).Msg("snapshot not saved")
		return
	}
	a.deps.Telemetry.Metrics().SnapshotSaved(time.Since(began))
	a.sinceSnapshot = 0
	a.snaps.saved(a.state.LastSeq, len(data))
}

func (a *agent) statusChange(to messages.AgentStatus, reason string) messages.Payload {
	return agentstate.StatusChange(a.state, to, reason)
}

// admit journals env when agentstate.Admit admits it, and answers only
// once the message_admitted event is durable. Nothing is written for a
// refusal or a duplicate.
func (a *agent) admit(env messages.MessageEnvelope) *Admitted {
	res := &Admitted{MessageID: env.ID}
	ad, err := agentstate.Admit(a.state, a.env(), env, a.deps.QueueLimit)
	switch {
	case err != nil:
		res.Err = err
	case ad.Batch == nil:
		res.Seq, res.Duplicate = ad.Seq, ad.Duplicate
	default:
		if err := a.commit(ad.Batch); err != nil {
			res.Err = fmt.Errorf("admit %s: %w", env.ID, err)
			return res
		}
		res.Seq = a.state.LastSeq
	}
	return res
}

// control applies a lifecycle command (agentstate.Control): the running
// step is abandoned first when the command cuts the turn, then its batch
// is journaled, then timers, command tasks and children follow.
func (a *agent) control(m *Control) *ControlResult {
	l, err := agentstate.Control(a.state, a.env(), m.Op, m.Reason, m.KeepMessageID)
	if err != nil {
		return &ControlResult{Status: a.state.Status, Err: err}
	}
	if l.Abandon {
		a.abandonStep()
	}
	a.mustCommit(l.Batch)
	if l.Rearm {
		a.rearmTimers()
	}
	if l.StopTasks {
		a.stopCommands()
	}
	if l.Children {
		a.controlChildren(m)
	}
	return &ControlResult{Status: a.state.Status}
}

// stopCommands stops the command tasks of an agent the operator stopped:
// a stopped agent keeps nothing running and spending. Each goes through
// TaskStop's path (its process group is killed and its end recorded
// cancelled), in a goroutine, since recording the end needs this actor.
// Its children are stopped by controlChildren instead: their supervision
// tasks stay open for a resume.
func (a *agent) stopCommands() {
	rt := a.wire.host
	if rt == nil {
		return
	}
	var ids []string
	for _, r := range a.state.OpenTasks() {
		if r.Child == nil {
			ids = append(ids, r.TaskID)
		}
	}
	ts := rt.Tasks(a.id)
	if len(ids) == 0 || ts == nil {
		return
	}
	agentID := a.id
	go func() {
		for _, id := range ids {
			if _, err := ts.Stop(context.Background(), id); err != nil {
				a.deps.Log.Error().Err(err).Str("agent_id", agentID).Str("task_id", id).Msg("task of a stopped agent not stopped")
			}
		}
	}()
}

// abandonStep makes any running step's result stale and cancels it.
func (a *agent) abandonStep() {
	a.gen++
	a.stepping = false
	a.cancel()
	a.ctx, a.cancel = context.WithCancel(context.Background())
}

// copyState returns a deep copy of the state for inspection.
func (a *agent) copyState() agentstate.State {
	data, err := json.Marshal(a.state)
	var st agentstate.State
	if err == nil {
		err = json.Unmarshal(data, &st)
	}
	if err != nil {
		return agentstate.State{ID: a.id, LastError: err.Error()}
	}
	return st
}

// elapsedMS is the milliseconds from start to now on the agent's clock.
func (a *agent) elapsedMS(start time.Time) int64 {
	return a.deps.Clock.Since(start).Milliseconds()
}
