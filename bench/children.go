package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/task"
)

// ChildrenDir is the sub-directory of ChildrenConfig.Dir that holds the
// store.
const ChildrenDir = "children"

// ChildrenConfig sets the workload of Children.
type ChildrenConfig struct {
	// Dir is the parent directory; the store goes into ChildrenDir under
	// it, which must be missing or hold an empty store.
	Dir string
	// Count is the number of private children spawned in all.
	Count int
	// Parents is the number of parent agents the children are spread
	// over, as evenly as possible; each parent spawns its share in one
	// model round. A share may not exceed actors.DefaultMaxActiveChildren
	// (the runtime's bound on the children a parent supervises at once),
	// so Parents is at least Count/64.
	Parents int
	// Keep leaves the store on disk; otherwise Children removes the
	// sub-directory it created before it returns.
	Keep bool
	// Logger receives the store's and protoactor's logs; nil means the
	// store's default and no protoactor logs.
	Logger *slog.Logger
}

// DefaultChildrenConfig returns the default workload under dir: 1,000
// children over 100 parents, 10 each, a delegation turn's typical fan-out
// rather than the runtime's limit of 64.
func DefaultChildrenConfig(dir string) ChildrenConfig {
	return ChildrenConfig{Dir: dir, Count: 1000, Parents: 100}
}

// Validate reports the first setting that cannot run.
func (c ChildrenConfig) Validate() error {
	switch {
	case c.Dir == "":
		return errors.New("children bench: dir is empty")
	case c.Count < 1:
		return fmt.Errorf("children bench: count is %d, want at least 1", c.Count)
	case c.Parents < 1 || c.Parents > c.Count:
		return fmt.Errorf("children bench: parents is %d, want 1 to count (%d)", c.Parents, c.Count)
	case c.perParent() > actors.DefaultMaxActiveChildren:
		return fmt.Errorf("children bench: %d children over %d parents is %d per parent, over the runtime's limit of %d: use at least %d parents",
			c.Count, c.Parents, c.perParent(), actors.DefaultMaxActiveChildren, ceilDiv(c.Count, actors.DefaultMaxActiveChildren))
	}
	return nil
}

// perParent is the largest share of a parent.
func (c ChildrenConfig) perParent() int { return ceilDiv(c.Count, c.Parents) }

// share is the number of children parent i spawns.
func (c ChildrenConfig) share(i int) int {
	n := c.Count / c.Parents
	if i < c.Count%c.Parents {
		n++
	}
	return n
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// ChildrenResult is what Children measured.
type ChildrenResult struct {
	Children          int `json:"children"`
	Parents           int `json:"parents"`
	ChildrenPerParent int `json:"children_per_parent"` // the largest share

	// Seconds is the wall time of the rejoin run, from the release of the
	// parents' prompts until the last child's supervision task ended
	// (task_finished in its parent's journal), and ChildrenPerSec is
	// Children over it: spawn, the child's one-round turn, its archiving
	// and its rejoin, all journaled durably.
	Seconds        float64 `json:"seconds"`
	ChildrenPerSec float64 `json:"children_per_sec"`
	// A child's latency, from its task_started (journaled with the
	// SpawnAgent result) to its task_finished in the parent's journal,
	// by the journal's timestamps, in milliseconds.
	ChildP50Ms float64 `json:"child_p50_ms"`
	ChildP99Ms float64 `json:"child_p99_ms"`
	ChildMaxMs float64 `json:"child_max_ms"`
	// ParentTurns is the turns the parents ran: one delegation turn each
	// and one per task_result.
	ParentTurns int `json:"parent_turns"`
	// ChildrenArchived is the children whose journal ends archived after
	// the rejoin run: all of them, or Children fails.
	ChildrenArchived int `json:"children_archived"`
	// Orphans is the agents with a running actor after the rejoin run once
	// idle agents are passivated, plus, in the live run, any running agent
	// that is neither a parent nor one of its live children: 0, or
	// Children fails.
	Orphans int `json:"orphans"`

	// ChildRSSBytes is the memory cost of one live supervised child, per
	// child. After the rejoin run the runtime and the store are closed;
	// the store is reopened (its memtables empty) under a new runtime
	// whose own parents are warmed (one turn each, no children), and the
	// resident set is read at rest (RSSParentsWarmBytes, see
	// restingMemory); then each parent spawns its share of children that
	// call Sleep (their closure waits, so they stay supervised and their
	// actors run) and, once every child is asleep, the resident set is
	// read again at rest (RSSChildrenLiveBytes). The figure is the growth
	// over Children: the child's actor and state, the parent's task record
	// and conversation items for it, the runtime's and protoactor's maps,
	// the bench's own bookkeeping (a few hundred bytes a child), and the
	// pages of the store's memtable and write-ahead log that the journal
	// events written meanwhile touched (allocated at open, so outside the
	// heap figure; most of the difference between the two).
	ChildRSSBytes float64 `json:"child_rss_bytes"`
	// ChildHeapBytes is the same growth of the Go heap in use. A run that
	// writes more than a memtable (16 MiB; by estimate some 2,000 live children) adds
	// a new one to it.
	ChildHeapBytes       float64 `json:"child_heap_bytes"`
	LiveChildren         int     `json:"live_children"`
	RSSParentsWarmBytes  int64   `json:"rss_parents_warm_bytes"`
	RSSChildrenLiveBytes int64   `json:"rss_children_live_bytes"`
}

// Children runs the delegation workload on one runtime over a durable store
// in a fresh directory: cfg.Parents parent agents, each prompted once,
// spawn cfg.Count private children between them with SpawnAgent; each
// child answers in one zero-latency round (childrenProvider), archives
// itself and rejoins its parent as a task_result, which starts a parent
// turn. It then measures live children's memory in a second run (see
// ChildrenResult.ChildRSSBytes). A failure, a child that does not archive
// or an agent left running is an error, not a figure; a run that makes no
// progress for stallAfter fails naming what it waits for.
func Children(ctx context.Context, cfg ChildrenConfig) (ChildrenResult, error) {
	if err := cfg.Validate(); err != nil {
		return ChildrenResult{}, err
	}
	dir := filepath.Join(cfg.Dir, ChildrenDir)
	o := persistence.DefaultOptions(dir)
	o.Logger = cfg.Logger
	st, created, err := openFresh(ctx, o)
	if err != nil {
		return ChildrenResult{}, err
	}
	if created && !cfg.Keep {
		defer os.RemoveAll(dir)
	}
	res := ChildrenResult{Children: cfg.Count, Parents: cfg.Parents, ChildrenPerParent: cfg.perParent()}
	err = rejoinRun(ctx, cfg, st, &res)
	if err = errors.Join(err, closeStore(st, dir)); err != nil {
		return ChildrenResult{}, err
	}
	if err := liveRun(ctx, cfg, o, &res); err != nil {
		return ChildrenResult{}, err
	}
	return res, nil
}

// rejoinRun is the timed run: every parent delegates its share, every
// child rejoins, every parent settles; then it checks that the children
// are archived and that no agent is left running.
func rejoinRun(ctx context.Context, cfg ChildrenConfig, st *persistence.BadgerStore, res *ChildrenResult) (err error) {
	rt, err := newChildrenRuntime(st, cfg.Logger)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, closeRuntime(rt)) }()
	logs := parentLogs("parent", cfg)
	began, err := runParents(ctx, st, logs, func(ctx context.Context, p *parentLog, sub *persistence.Subscription) error {
		if err := p.admit(ctx, rt, spawnPrompt(p.want, answerTask)); err != nil {
			return err
		}
		return p.follow(ctx, st, sub, p.rejoined)
	})
	if err != nil {
		return err
	}
	var last time.Time
	var lat []time.Duration
	for _, p := range logs {
		if p.endedAt.After(last) {
			last = p.endedAt
		}
		lat = append(lat, p.lat...)
		res.ParentTurns += p.turns
	}
	res.Seconds = last.Sub(began).Seconds()
	res.ChildrenPerSec = float64(cfg.Count) / res.Seconds
	p50, p99, maxLatency := latencySummary(lat)
	res.ChildP50Ms, res.ChildP99Ms, res.ChildMaxMs = ms(p50), ms(p99), ms(maxLatency)
	if res.ChildrenArchived, err = countArchived(ctx, st, logs); err != nil {
		return err
	}
	active, err := passivateAll(ctx, rt)
	if err != nil {
		return err
	}
	if len(active) > 0 {
		res.Orphans = len(active)
		return fmt.Errorf("%d agents still running after every child rejoined and idle agents were passivated %d times: %s",
			len(active), passivatePasses, sample(active))
	}
	return nil
}

// passivatePasses bounds the passes of passivateAll.
const passivatePasses = 3

// passivateAll passivates idle agents until none runs, at most
// passivatePasses times, and returns those still running. A parent can be
// kept by a pass because a message reached it between its passivation and
// its retirement (PassivateIdle: "kept because it got work meanwhile");
// the next pass, behind that message, passivates it.
func passivateAll(ctx context.Context, rt *actors.Runtime) ([]string, error) {
	for range passivatePasses {
		if err := rt.PassivateIdle(ctx); err != nil {
			return nil, fmt.Errorf("passivate idle agents: %w", err)
		}
		if len(rt.Active()) == 0 {
			break
		}
	}
	return rt.Active(), nil
}

// liveRun measures live children (see ChildrenResult.ChildRSSBytes) with
// parents of its own, on a new runtime over the store o reopened (so the
// memtables filled by the rejoin run are flushed and gone), and checks
// that exactly the parents and their children are running. It closes both
// before it returns.
func liveRun(ctx context.Context, cfg ChildrenConfig, o persistence.Options, res *ChildrenResult) (err error) {
	st, err := persistence.Open(o)
	if err != nil {
		return fmt.Errorf("reopen %s: %w", o.Dir, err)
	}
	defer func() { err = errors.Join(err, closeStore(st, o.Dir)) }()
	rt, err := newChildrenRuntime(st, cfg.Logger)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, closeRuntime(rt)) }()
	logs := parentLogs("live-parent", cfg)
	if _, err := runParents(ctx, st, logs, func(ctx context.Context, p *parentLog, sub *persistence.Subscription) error {
		if err := p.admit(ctx, rt, warmPrompt); err != nil {
			return err
		}
		return p.follow(ctx, st, sub, p.answered)
	}); err != nil {
		return err
	}
	before := restingMemory(ctx)
	if _, err := runParents(ctx, st, logs, func(ctx context.Context, p *parentLog, sub *persistence.Subscription) error {
		if err := p.admit(ctx, rt, spawnPrompt(p.want, liveTask)); err != nil {
			return err
		}
		if err := p.follow(ctx, st, sub, p.answered); err != nil {
			return err
		}
		return p.childrenAsleep(ctx, st)
	}); err != nil {
		return err
	}
	live := restingMemory(ctx)
	res.RSSParentsWarmBytes, res.RSSChildrenLiveBytes = before.rss, live.rss
	res.ChildRSSBytes, res.ChildHeapBytes = growth(before, live, cfg.Count)
	res.LiveChildren, res.Orphans, err = checkLive(rt.Active(), logs)
	return err
}

// checkLive compares the running agents with the parents and their
// children, which must all be running, and counts the live children and
// the running agents that are neither.
func checkLive(active []string, logs []*parentLog) (live, orphans int, err error) {
	want := map[string]bool{}
	for _, p := range logs {
		want[p.id] = false
		for _, c := range p.children {
			want[c] = true
		}
	}
	var strays []string
	for _, id := range active {
		child, ok := want[id]
		switch {
		case !ok:
			strays = append(strays, id)
		case child:
			live++
		}
		delete(want, id)
	}
	if len(strays) > 0 {
		return live, len(strays), fmt.Errorf("%d agents running that are neither a parent nor its live child: %s", len(strays), sample(strays))
	}
	if len(want) > 0 {
		missing := slices.Sorted(func(yield func(string) bool) {
			for id := range want {
				if !yield(id) {
					return
				}
			}
		})
		return live, 0, fmt.Errorf("%d parents or live children not running: %s", len(missing), sample(missing))
	}
	return live, 0, nil
}

// sample lists up to five ids.
func sample(ids []string) string {
	if len(ids) > 5 {
		return strings.Join(ids[:5], ", ") + ", …"
	}
	return strings.Join(ids, ", ")
}

// newChildrenRuntime starts a runtime whose agents use st and
// childrenProvider, with no tools but the runtime's own. Close it with
// closeRuntime.
func newChildrenRuntime(st persistence.Store, logger *slog.Logger) (*actors.Runtime, error) {
	reg, err := tools.NewRegistry()
	if err != nil {
		return nil, err
	}
	deps := actors.AgentDeps{Store: st, Provider: childrenProvider{}, Tools: reg, Log: zerolog.Nop(),
		SystemPrompt: "You are a benchmark agent. Delegate with SpawnAgent when asked; answer briefly."}
	rt, err := actors.NewRuntime(deps, actors.RuntimeOptions{Logger: logger})
	if err != nil {
		return nil, fmt.Errorf("start runtime: %w", err)
	}
	return rt, nil
}

// stallAfter is how long a run may go without a journal event anywhere
// before it fails as stuck.
const stallAfter = time.Minute

// errStalled is the cause of a run that made no progress for stallAfter.
var errStalled = errors.New("no journal event for " + stallAfter.String())

// runParents runs drive for every parent at once, each with a subscription
// to its journal taken before, and returns when the last is done, with the
// time they were released. Every failure is returned, each naming what its
// parent was waiting for; a run with no journal event anywhere for
// stallAfter is cancelled with errStalled and its goroutines dumped to a
// file named in the error.
func runParents(ctx context.Context, st persistence.Store, logs []*parentLog,
	drive func(context.Context, *parentLog, *persistence.Subscription) error) (time.Time, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var progress atomic.Int64 // events read by every parent, the watchdog's pulse
	start := make(chan struct{})
	errs := make([]error, len(logs))
	var wg sync.WaitGroup
	for i, p := range logs {
		p.progress = &progress
		sub := st.Subscribe(p.id) // before the first Admit, so no append goes unsignalled
		wg.Go(func() {
			defer sub.Close()
			<-start
			if errs[i] = drive(ctx, p, sub); errs[i] != nil && ctx.Err() == nil {
				cancel(errs[i]) // the first failure stops every parent
			}
		})
	}
	done := make(chan struct{}) // closed once every parent is done, to stop the watchdog
	began := time.Now()
	close(start)
	go watchdog(ctx, cancel, &progress, done)
	wg.Wait()
	close(done)
	if context.Cause(ctx) == nil {
		return began, nil
	}
	if errors.Is(context.Cause(ctx), errStalled) {
		errs = append(errs, context.Cause(ctx))
	}
	return began, errors.Join(errs...)
}

// watchdog cancels ctx with errStalled, after dumping every goroutine, when
// progress stays put for stallAfter; it returns when done is closed or ctx
// ends.
func watchdog(ctx context.Context, cancel context.CancelCauseFunc, progress *atomic.Int64, done <-chan struct{}) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	seen, since := progress.Load(), time.Now()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if n := progress.Load(); n != seen {
			seen, since = n, time.Now()
			continue
		}
		if time.Since(since) >= stallAfter {
			cancel(fmt.Errorf("%w (goroutines: %s)", errStalled, dumpGoroutines()))
			return
		}
	}
}

// dumpGoroutines writes every goroutine's stack to a new temporary file
// and returns its name, or why it could not.
func dumpGoroutines() string {
	f, err := os.CreateTemp("", "holon-bench-children-stall-*.txt")
	if err != nil {
		return "not dumped: " + err.Error()
	}
	defer f.Close()
	if err := pprof.Lookup("goroutine").WriteTo(f, 2); err != nil {
		return "not dumped: " + err.Error()
	}
	return f.Name()
}

// parentLog is what one parent's journal says of its turn and its
// children; only its parent's goroutine touches it.
type parentLog struct {
	id   string
	want int // children it spawns
	next uint64
	// progress counts the events read by every parent (the watchdog's).
	progress *atomic.Int64

	promptID string          // the last prompt admitted
	spawning bool            // whether that prompt asks for children
	open     map[string]bool // admitted messages whose turn has not ended
	turns    int             // turns ended
	started  map[string]time.Time
	children []string // child agent ids, in spawn order
	ended    map[string]bool
	lat      []time.Duration // task_started to task_finished, per child
	endedAt  time.Time       // when the last child's task end was read
}

// parentLogs names the parents of a run prefix-0000… and gives each its
// share.
func parentLogs(prefix string, cfg ChildrenConfig) []*parentLog {
	logs := make([]*parentLog, cfg.Parents)
	for i := range logs {
		logs[i] = &parentLog{id: fmt.Sprintf("%s-%04d", prefix, i), want: cfg.share(i), next: 1,
			open: map[string]bool{}, started: map[string]time.Time{}, ended: map[string]bool{}}
	}
	return logs
}

// admit admits text to the parent as an operator prompt.
func (p *parentLog) admit(ctx context.Context, rt *actors.Runtime, text string) error {
	env := operatorEnvelope(p.id, text)
	p.promptID, p.spawning = env.ID, strings.HasPrefix(text, parentPrefix)
	p.open[env.ID] = true // open from now, so the events before its admission settle nothing
	if _, err := rt.Admit(ctx, env); err != nil {
		return fmt.Errorf("admit to %s: %w", p.id, err)
	}
	return nil
}

// answered reports whether the turn of every message admitted so far has
// ended: the parent is settled.
func (p *parentLog) answered() bool { return len(p.open) == 0 }

// rejoined reports whether every child's task has ended and the parent
// has settled every task_result.
func (p *parentLog) rejoined() bool { return len(p.ended) == p.want && p.answered() }

// follow reads the parent's journal on, waking on sub, until done holds;
// on failure it says what the parent was waiting for.
func (p *parentLog) follow(ctx context.Context, st persistence.Store, sub *persistence.Subscription, done func() bool) error {
	err := follow(ctx, st, sub, p.id, &p.next, func(ev messages.Event) (bool, error) {
		p.progress.Add(1)
		if err := p.apply(ev); err != nil {
			return true, err
		}
		return done(), nil
	})
	if err != nil {
		return fmt.Errorf("%w (%s)", err, p.waiting(st))
	}
	return nil
}

// apply reads one event of the parent's journal.
func (p *parentLog) apply(ev messages.Event) error {
	switch ev.Type {
	case messages.EventMessageAdmitted, messages.EventTurnTerminal, messages.EventBriefRecorded, messages.EventTaskStarted, messages.EventTaskFinished:
	default:
		return nil
	}
	pl, err := ev.Decode()
	if err != nil {
		return fmt.Errorf("decode %s seq %d: %w", ev.AgentID, ev.Seq, err)
	}
	switch m := pl.(type) {
	case messages.MessageAdmitted:
		p.open[m.Envelope.ID] = true
	case messages.TurnTerminal:
		return p.turnEnded(m)
	case messages.BriefRecorded:
		if m.Brief.Kind == messages.BriefFailure {
			return fmt.Errorf("turn of %s in %s ended with a failure brief: %s", m.Brief.RelatedMessageID, p.id, m.Brief.Text)
		}
	case messages.TaskStarted:
		return p.taskStarted(ev, m)
	case messages.TaskFinished:
		return p.taskFinished(ev, m)
	}
	return nil
}

// turnEnded settles the message of a turn that completed (its closure
// may wait on the children it spawned); any other end is an error.
func (p *parentLog) turnEnded(m messages.TurnTerminal) error {
	if m.Kind != messages.TerminalCompleted {
		return fmt.Errorf("turn %s of %s (message %s) ended %s", m.TurnID, p.id, m.MessageID, m.Kind)
	}
	if !p.open[m.MessageID] {
		return nil
	}
	delete(p.open, m.MessageID)
	p.turns++
	if m.MessageID == p.promptID && p.spawning && len(p.started) != p.want {
		return fmt.Errorf("%s spawned %d children, want %d", p.id, len(p.started), p.want)
	}
	return nil
}

func (p *parentLog) taskStarted(ev messages.Event, m messages.TaskStarted) error {
	if m.Kind != task.KindChildAgent {
		return fmt.Errorf("%s started a %s task, want only %s", p.id, m.Kind, task.KindChildAgent)
	}
	rec, err := childRecord(m)
	if err != nil {
		return fmt.Errorf("task %s of %s: %w", m.TaskID, p.id, err)
	}
	p.started[m.TaskID] = ev.At
	p.children = append(p.children, rec.ChildAgentID)
	if len(p.started) > p.want {
		return fmt.Errorf("%s spawned %d children, want %d", p.id, len(p.started), p.want)
	}
	return nil
}

func (p *parentLog) taskFinished(ev messages.Event, m messages.TaskFinished) error {
	at, ok := p.started[m.TaskID]
	switch {
	case !ok:
		return fmt.Errorf("%s finished task %s it never started", p.id, m.TaskID)
	case m.Status != task.StatusCompleted:
		return fmt.Errorf("child task %s of %s ended %s: %s", m.TaskID, p.id, m.Status, m.Result)
	case p.ended[m.TaskID]:
		return fmt.Errorf("child task %s of %s ended twice", m.TaskID, p.id)
	}
	p.ended[m.TaskID] = true
	p.lat = append(p.lat, ev.At.Sub(at))
	if len(p.ended) == p.want {
		p.endedAt = time.Now()
	}
	return nil
}

// waiting describes what the parent waits for: its open messages, its
// children whose task has not ended and the last event of the first few.
func (p *parentLog) waiting(st persistence.Store) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s at seq %d: %d of %d children spawned, %d ended, %d messages whose turn has not ended",
		p.id, p.next-1, len(p.started), p.want, len(p.ended), len(p.open))
	for id := range p.open {
		fmt.Fprintf(&b, "; open message %s", id)
	}
	shown := 0
	for _, c := range p.children {
		if shown == 3 {
			break
		}
		last, err := lastEvent(st, c)
		if err == nil && last.Type == messages.EventAgentStateChanged && strings.Contains(string(last.Payload), `"to":"archived"`) {
			continue
		}
		shown++
		fmt.Fprintf(&b, "; child %s last event %d %s %s (err %v)", c, last.Seq, last.Type, last.Payload, err)
	}
	return b.String()
}

// childRecord decodes the record of a child_agent_task.
func childRecord(m messages.TaskStarted) (agentstate.ChildTaskRecord, error) {
	var rec agentstate.ChildTaskRecord
	if err := json.Unmarshal(m.Record, &rec); err != nil {
		return rec, fmt.Errorf("child task record: %w", err)
	}
	if rec.ChildAgentID == "" {
		return rec, errors.New("child task record names no child")
	}
	return rec, nil
}

// childrenAsleep waits until each of the parent's children is asleep, its
// Sleep turn ended; one that archives instead is an error.
func (p *parentLog) childrenAsleep(ctx context.Context, st persistence.Store) error {
	for _, c := range p.children {
		sub := st.Subscribe(c)
		next := uint64(1)
		err := follow(ctx, st, sub, c, &next, func(ev messages.Event) (bool, error) {
			p.progress.Add(1)
			return childStatus(ev, messages.StatusAsleep)
		})
		sub.Close()
		if err != nil {
			return fmt.Errorf("child %s of %s: %w", c, p.id, err)
		}
	}
	return nil
}

// childStatus reports whether ev changes the child's status to want; a
// change to archived is an error unless wanted.
func childStatus(ev messages.Event, want messages.AgentStatus) (bool, error) {
	if ev.Type != messages.EventAgentStateChanged {
		return false, nil
	}
	pl, err := ev.Decode()
	if err != nil {
		return false, fmt.Errorf("decode %s seq %d: %w", ev.AgentID, ev.Seq, err)
	}
	to := pl.(messages.AgentStateChanged).To
	if to == messages.StatusArchived && want != messages.StatusArchived {
		return true, fmt.Errorf("%s archived at seq %d, want it %s", ev.AgentID, ev.Seq, want)
	}
	return to == want, nil
}

// countArchived counts the children of logs whose journal ends with their
// archived status; any other is an error naming it.
func countArchived(ctx context.Context, st persistence.Store, logs []*parentLog) (int, error) {
	n := 0
	var notArchived []string
	for _, p := range logs {
		for _, c := range p.children {
			evs, err := st.Read(ctx, c, 1, math.MaxUint64, 0)
			if err != nil {
				return n, fmt.Errorf("read %s: %w", c, err)
			}
			archived := false
			for _, ev := range evs {
				if ev.Type == messages.EventAgentStateChanged {
					archived, _ = childStatus(ev, messages.StatusArchived)
				}
			}
			if !archived {
				notArchived = append(notArchived, c)
				continue
			}
			n++
		}
	}
	if len(notArchived) > 0 {
		return n, fmt.Errorf("%d children not archived after they rejoined: %s", len(notArchived), sample(notArchived))
	}
	return n, nil
}

// lastEvent is the last event of stream id.
func lastEvent(st persistence.Store, id string) (messages.Event, error) {
	ctx := context.Background() // a diagnostic, read after the run's context ended
	seq, err := st.HighestSeq(ctx, id)
	if err != nil || seq == 0 {
		return messages.Event{}, err
	}
	evs, err := st.Read(ctx, id, seq, seq, 1)
	if err != nil || len(evs) == 0 {
		return messages.Event{}, err
	}
	return evs[0], nil
}

// follow reads stream id from seq *next on, waking on sub, and hands each
// event to fn until fn reports done or fails; *next is left after the last
// event handed over.
func follow(ctx context.Context, st persistence.Store, sub *persistence.Subscription, id string, next *uint64,
	fn func(messages.Event) (bool, error)) error {
	for {
		evs, err := st.Read(ctx, id, *next, math.MaxUint64, 0)
		if err != nil {
			return fmt.Errorf("read %s from seq %d: %w", id, *next, err)
		}
		for _, ev := range evs {
			*next = ev.Seq + 1
			if done, err := fn(ev); done || err != nil {
				return err
			}
		}
		select {
		case <-sub.C:
		case <-ctx.Done():
			return fmt.Errorf("wait on %s: %w", id, context.Cause(ctx))
		}
	}
}
