package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/tools"
)

// TurnsDir is the sub-directory of TurnsConfig.Dir that holds the store.
const TurnsDir = "turns"

// TurnsConfig sets the workload of Turns.
type TurnsConfig struct {
	// Dir is the parent directory; the store goes into TurnsDir under it,
	// which must be missing or hold an empty store.
	Dir string
	// Agents is the number of agents, each driven by its own goroutine.
	Agents int
	// Turns is the number of prompts each agent answers, one after another.
	Turns int
	// Keep leaves the store on disk; otherwise Turns removes the
	// sub-directory it created before it returns.
	Keep bool
	// Logger receives the store's and protoactor's logs; nil means the
	// store's default and no protoactor logs.
	Logger *slog.Logger
	// Memory gives the agents homes (in TurnsHomesDir under Dir), so the
	// runtime keeps their memory indexes current as they run; without it
	// they keep working memory and episodes in their journals only.
	Memory bool
	// NoMemoryIndex, with Memory, gives the agents homes but keeps no
	// memory index: the baseline of what indexing costs (TurnOverhead).
	NoMemoryIndex bool
	// MemoryToolsWithoutIndex, with NoMemoryIndex, still offers the
	// memory tools and points the model at them: everything of Memory but
	// the index's upkeep (TurnOverhead's base).
	MemoryToolsWithoutIndex bool
}

// DefaultTurnsConfig returns the default workload: 1,000 agents of 5 turns
// under dir.
func DefaultTurnsConfig(dir string) TurnsConfig {
	return TurnsConfig{Dir: dir, Agents: 1000, Turns: 5}
}

// Validate reports the first setting that cannot run.
func (c TurnsConfig) Validate() error {
	if c.NoMemoryIndex && !c.Memory {
		return errors.New("bench turns: no-memory-index only applies with memory (homes without an index); add memory or drop no-memory-index")
	}
	if c.MemoryToolsWithoutIndex && !c.NoMemoryIndex {
		return errors.New("bench turns: memory-tools only applies with memory and no-memory-index (the tools offered without an index); add both or drop memory-tools")
	}
	return checkWorkload("turns", c.Dir, count{"agents", c.Agents}, count{"turns", c.Turns})
}

// TurnsResult is what Turns measured.
type TurnsResult struct {
	Agents     int `json:"agents"`
	Turns      int `json:"turns"` // per agent
	TotalTurns int `json:"total_turns"`

	Seconds     float64 `json:"seconds"`
	TurnsPerSec float64 `json:"turns_per_sec"`
	// CPUSeconds is the process's CPU time (user and system) over the
	// same run: on a shared machine, where Seconds includes waiting for a
	// core, the steadier measure of what the turns cost.
	CPUSeconds float64 `json:"cpu_seconds"`
	// MemoryFlushSeconds and MemoryFlushCPUSeconds are, with Memory, the
	// wall and CPU time after the last turn to index the records still
	// pending (indexing is lazy: what a quiet runtime does in the
	// background); neither is in Seconds or CPUSeconds.
	MemoryFlushSeconds    float64 `json:"memory_flush_seconds,omitempty"`
	MemoryFlushCPUSeconds float64 `json:"memory_flush_cpu_seconds,omitempty"`
	// Turn latencies, from the start of the Admit call to the turn's
	// brief_recorded being durable, in milliseconds.
	TurnP50Ms float64 `json:"turn_p50_ms"`
	TurnP99Ms float64 `json:"turn_p99_ms"`
	TurnMaxMs float64 `json:"turn_max_ms"`

	// EventsPerTurn is every journal event of the run (the sum of the
	// streams' HighestSeq, agent creation included) over TotalTurns.
	EventsPerTurn float64 `json:"events_per_turn"`
	// BytesPerTurn is the store's size on disk after Close (see storeBytes:
	// SSTables, value log and MANIFEST, so the journals plus each agent's
	// snapshot saved when it passivated) over TotalTurns.
	BytesPerTurn float64 `json:"bytes_per_turn"`
	// TurnsPerSecByDecile and BytesPerTurnByDecile split each agent's run
	// into tenths (turns_deciles.go): its turns per second of the time it
	// spent in them, and the journal bytes (encoded, uncompressed) a turn
	// wrote. Flat lists mean an agent costs the same however long it lived.
	TurnsPerSecByDecile  []float64 `json:"turns_per_sec_by_decile"`
	BytesPerTurnByDecile []float64 `json:"bytes_per_turn_by_decile"`
	// RSSByDecileBytes is the process's resident set at the end of each
	// tenth of the first agent's run (turns_deciles.go), read after a GC
	// that returns freed memory to the OS; with --agents 1 its first and
	// last entries are the resident set after 10 % of the turns and after
	// all of them: whether a long-lived agent's memory stays flat.
	RSSByDecileBytes []int64 `json:"rss_by_decile_bytes"`
	// RSSAnonByDecileBytes is the anonymous part of the same resident
	// sets (RssAnon: heap, stacks, the store's memtables), without the
	// pages of the journal's files the store maps, which the kernel
	// counts in the resident set while they are cached and takes back
	// under memory pressure.
	RSSAnonByDecileBytes []int64 `json:"rss_anon_by_decile_bytes"`

	// IdleAgentRSSBytes is what an idle agent costs the runtime, per
	// agent, measured apart from the run. After the run the runtime and
	// the store are closed, so the store's memtables and caches filled by
	// the run's writes are gone; then the store and a new runtime are
	// opened over the same data and the resident set is read
	// (RSSReopenedBytes); every agent is activated (it recovers from the
	// snapshot it saved when it passivated), then all are passivated with
	// Runtime.PassivateIdle (each saves nothing new and its actor is
	// stopped), and the resident set is read again (RSSPassivatedBytes).
	// The figure is the growth between the two readings over Agents. Each
	// reading is taken at rest (the process allocating under 256 KiB per
	// 250 ms for 1.5 s, so no compaction of the run's writes is in
	// flight), after a GC and debug.FreeOSMemory.
	//
	// A passivated agent keeps nothing in memory, so the growth is made of
	// what the activation of Agents agents at once left behind: structures
	// sized by the peak number of active agents (Go maps do not shrink:
	// the runtime's PID map, protoactor's process registry and the agents
	// supervisor's child set; the Go runtime keeps its goroutine
	// descriptors) and the store's block and index caches, filled as the
	// agents read their snapshots and bounded by persistence.Options
	// (BlockCacheSize, IndexCacheSize) whatever the number of agents.
	IdleAgentRSSBytes float64 `json:"idle_agent_rss_bytes"`
	// IdleAgentHeapBytes is the same growth of the Go heap in use.
	IdleAgentHeapBytes float64 `json:"idle_agent_heap_bytes"`
	// ActiveAgentRSSBytes and ActiveAgentHeapBytes are the growth from
	// RSSReopenedBytes to the reading taken with every agent activated and
	// idle, before passivation (RSSAllActiveBytes), per agent: what an
	// agent costs while its actor runs with its state in memory.
	ActiveAgentRSSBytes  float64 `json:"active_agent_rss_bytes"`
	ActiveAgentHeapBytes float64 `json:"active_agent_heap_bytes"`
	// The readings behind the figures above.
	RSSReopenedBytes   int64 `json:"rss_reopened_bytes"`
	RSSAllActiveBytes  int64 `json:"rss_all_active_bytes"`
	RSSPassivatedBytes int64 `json:"rss_passivated_bytes"`

	// RSSGrowthPerAgentAfterRunBytes is the growth of the resident set in
	// the run's own process, from before the first agent
	// (RSSBeforeRunBytes) to after the run with every agent passivated
	// (RSSAfterRunBytes), per agent. Unlike IdleAgentRSSBytes it includes
	// what the store keeps in memory after the run's writes (memtables,
	// block cache) and what the Go runtime keeps from the run.
	RSSGrowthPerAgentAfterRunBytes float64 `json:"rss_growth_per_agent_after_run_bytes"`
	// HeapGrowthPerAgentAfterRunBytes is the same growth of the Go heap in
	// use (Badger's memtables are Go heap too).
	HeapGrowthPerAgentAfterRunBytes float64 `json:"heap_growth_per_agent_after_run_bytes"`
	RSSBeforeRunBytes               int64   `json:"rss_before_run_bytes"`
	RSSAfterRunBytes                int64   `json:"rss_after_run_bytes"`
}

// Turns runs cfg.Agents agents on one runtime over a durable store in a
// fresh directory. Each agent's goroutine sends it cfg.Turns operator
// prompts, one after another: it admits a prompt and waits until the turn's
// brief is durable before it sends the next. Every turn is two zero-latency
// model rounds around one in-process echo call (benchProvider, benchEcho),
// so the run measures the runtime and its journal, not a model. After the
// run it measures idle agents on a reopened store (see
// TurnsResult.IdleAgentRSSBytes).
func Turns(ctx context.Context, cfg TurnsConfig) (TurnsResult, error) {
	if err := cfg.Validate(); err != nil {
		return TurnsResult{}, err
	}
	dir := filepath.Join(cfg.Dir, TurnsDir)
	o := persistence.DefaultOptions(dir)
	o.Logger = cfg.Logger
	var res TurnsResult
	err := inFreshStore(ctx, o, dir, cfg.Keep, func(st *persistence.BadgerStore) (err error) {
		res, err = turnsRun(ctx, cfg, st)
		return err
	}, func() error {
		bytes, err := storeBytes(dir)
		if err != nil {
			return fmt.Errorf("measure %s: %w", dir, err)
		}
		res.BytesPerTurn = float64(bytes) / float64(res.TotalTurns)
		return idleRun(ctx, cfg, o, &res)
	})
	if cfg.Memory && !cfg.Keep {
		err = errors.Join(err, os.RemoveAll(filepath.Join(cfg.Dir, TurnsHomesDir)))
	}
	if err != nil {
		return TurnsResult{}, err
	}
	return res, nil
}

// turnsRun starts a runtime over st, drives every agent, measures, and
// closes the runtime; st stays open.
func turnsRun(ctx context.Context, cfg TurnsConfig, st *persistence.BadgerStore) (res TurnsResult, err error) {
	watched := newBriefWatch(st)
	rt, err := turnsRuntime(watched, cfg)
	if err != nil {
		return TurnsResult{}, err
	}
	defer func() { err = errors.Join(err, closeRuntime(rt)) }()
	res = TurnsResult{Agents: cfg.Agents, Turns: cfg.Turns, TotalTurns: cfg.Agents * cfg.Turns}
	before := settledMemory()

	rss := newDecileRSS(cfg.Turns)
	cpu0, cpuErr := processCPU(os.Getpid())
	elapsed, latencies, err := driveAll(ctx, rt, watched, cfg.Agents, cfg.Turns, rss.turnDone)
	if err != nil {
		return TurnsResult{}, err
	}
	if cpu1, err := processCPU(os.Getpid()); cpuErr == nil && err == nil {
		res.CPUSeconds = (cpu1 - cpu0).Seconds()
	}
	flushMemory(ctx, rt, cfg, &res)                                                 // turns_memory.go
	res.TurnsPerSecByDecile = turnsPerSecByDecile(latencies, cfg.Agents, cfg.Turns) // before the sort below
	res.RSSByDecileBytes, res.RSSAnonByDecileBytes = rss.bytes, rss.anon
	if res.BytesPerTurnByDecile, err = bytesPerTurnByDecile(ctx, st, cfg.Agents, cfg.Turns); err != nil {
		return TurnsResult{}, err
	}
	res.Seconds = elapsed.Seconds()
	res.TurnsPerSec = float64(res.TotalTurns) / res.Seconds
	p50, p99, maxLatency := latencySummary(latencies)
	res.TurnP50Ms, res.TurnP99Ms, res.TurnMaxMs = ms(p50), ms(p99), ms(maxLatency)
	events, err := totalEvents(ctx, st, cfg.Agents)
	if err != nil {
		return TurnsResult{}, err
	}
	res.EventsPerTurn = float64(events) / float64(res.TotalTurns)

	if err := rt.PassivateIdle(ctx); err != nil {
		return TurnsResult{}, fmt.Errorf("passivate idle agents: %w", err)
	}
	after := settledMemory()
	res.RSSBeforeRunBytes, res.RSSAfterRunBytes = before.rss, after.rss
	res.RSSGrowthPerAgentAfterRunBytes, res.HeapGrowthPerAgentAfterRunBytes = growth(before, after, cfg.Agents)
	return res, nil
}

// idleRun measures what idle agents cost the runtime itself (see
// TurnsResult.IdleAgentRSSBytes): it reopens the store o, closed after the
// run, starts a runtime over it, activates every agent and passivates them
// all, reading memory before, with every agent active, and after. It
// closes both before it returns.
func idleRun(ctx context.Context, cfg TurnsConfig, o persistence.Options, res *TurnsResult) (err error) {
	st, err := persistence.Open(o)
	if err != nil {
		return fmt.Errorf("reopen %s: %w", o.Dir, err)
	}
	defer func() { err = errors.Join(err, closeStore(st, o.Dir)) }()
	rt, err := newBenchRuntime(st, cfg.Logger)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, closeRuntime(rt)) }()

	before := restingMemory(ctx)
	if err := activateAll(ctx, rt, cfg.Agents); err != nil {
		return err
	}
	active := restingMemory(ctx)
	if err := rt.PassivateIdle(ctx); err != nil {
		return fmt.Errorf("passivate idle agents: %w", err)
	}
	if n := len(rt.Active()); n != 0 {
		return fmt.Errorf("%d agents still active after passivating idle agents", n)
	}
	idle := restingMemory(ctx)
	res.RSSReopenedBytes, res.RSSAllActiveBytes, res.RSSPassivatedBytes = before.rss, active.rss, idle.rss
	res.ActiveAgentRSSBytes, res.ActiveAgentHeapBytes = growth(before, active, cfg.Agents)
	res.IdleAgentRSSBytes, res.IdleAgentHeapBytes = growth(before, idle, cfg.Agents)
	return nil
}

// activateAll activates agents 0..agents-1 (each recovers from its
// snapshot), a few at a time per core, and returns the first failure.
func activateAll(ctx context.Context, rt *actors.Runtime, agents int) error {
	return eachAgent(ctx, agents, func(ctx context.Context, name string) error {
		return rt.Activate(ctx, name)
	})
}

// eachAgent calls do for agents 0..agents-1, a few at a time per core,
// and returns the first failure (the agents not yet handed out are
// skipped once one fails).
func eachAgent(ctx context.Context, agents int, do func(ctx context.Context, name string) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int) // agent numbers, closed once all are handed out
	var wg sync.WaitGroup
	for range 4 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				if err := do(ctx, agentName(i)); err != nil {
					cancel(err)
				}
			}
		})
	}
	for i := range agents {
		select {
		case next <- i:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	return context.Cause(ctx)
}

// growth is the growth of the resident set and of the heap in use from
// before to after, per agent.
func growth(before, after memory, agents int) (rss, heap float64) {
	return float64(after.rss-before.rss) / float64(agents), float64(int64(after.heap)-int64(before.heap)) / float64(agents)
}

// newBenchRuntime starts a runtime whose agents use st, benchProvider and
// benchEcho. Close it with closeRuntime.
func newBenchRuntime(st persistence.Store, logger *slog.Logger) (*actors.Runtime, error) {
	return newBenchRuntimeWith(st, logger, nil)
}

// newBenchRuntimeWith is newBenchRuntime whose agents report to tel.
func newBenchRuntimeWith(st persistence.Store, logger *slog.Logger, tel *telemetry.Telemetry) (*actors.Runtime, error) {
	reg, err := tools.NewRegistry(benchEcho{})
	if err != nil {
		return nil, err
	}
	deps := actors.AgentDeps{Store: st, Provider: benchProvider{}, Tools: reg, Log: zerolog.Nop(),
		SystemPrompt: "You are a benchmark agent. Use the echo tool once, then answer.", Telemetry: tel}
	return startBenchRuntime(deps, actors.RuntimeOptions{Logger: logger})
}

func closeRuntime(rt *actors.Runtime) error {
	if err := rt.Close(); err != nil {
		return fmt.Errorf("close runtime: %w", err)
	}
	return nil
}

// agentName names the i-th agent of a run.
func agentName(i int) string { return fmt.Sprintf("bench-%06d", i) }

// driveAll starts one driver per agent, releases them together and waits
// for the last. It returns the wall time and every turn's latency. The
// first agent's driver calls first, when not nil, after each of its turns
// (n from 0), outside the turn's latency.
func driveAll(ctx context.Context, rt *actors.Runtime, st persistence.Store, agents, turns int, first func(n int)) (time.Duration, []time.Duration, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	start := make(chan struct{}) // closed by driveAll to release every driver at once
	latencies := make([][]time.Duration, agents)
	var wg sync.WaitGroup
	for i := range agents {
		latencies[i] = make([]time.Duration, 0, turns)
		wg.Go(func() {
			<-start
			var err error
			after := first
			if i > 0 {
				after = nil
			}
			if latencies[i], err = driveAgent(ctx, rt, st, agentName(i), turns, latencies[i], after); err != nil {
				cancel(err) // the first failure stops every driver
			}
		})
	}
	began := time.Now()
	close(start)
	wg.Wait()
	elapsed := time.Since(began)
	if err := context.Cause(ctx); err != nil {
		return 0, nil, err
	}
	all := make([]time.Duration, 0, agents*turns)
	for _, l := range latencies {
		all = append(all, l...)
	}
	return elapsed, all, nil
}

// driveAgent sends agent id turns prompts, each once the previous turn's
// brief is durable, and adds each turn's latency to lat; after, when not
// nil, is called after each turn.
func driveAgent(ctx context.Context, rt *actors.Runtime, st persistence.Store, id string, turns int, lat []time.Duration, after func(n int)) ([]time.Duration, error) {
	wake := briefsOrAppends(st, id) // before the first Admit, so no append goes unsignalled
	defer wake.close()
	next := uint64(1)
	for n := range turns {
		env := promptEnvelope(id, n)
		t := time.Now()
		if _, err := rt.Admit(ctx, env); err != nil {
			return lat, fmt.Errorf("admit turn %d to %s: %w", n+1, id, err)
		}
		var err error
		if next, err = awaitBrief(ctx, st, wake.c, id, env.ID, next); err != nil {
			return lat, err
		}
		lat = append(lat, time.Since(t))
		if after != nil {
			after(n)
		}
	}
	return lat, nil
}

// promptEnvelope is the n-th operator prompt for agent id, as the CLI
// would admit it.
func promptEnvelope(id string, n int) messages.MessageEnvelope {
	return operatorEnvelope(id, promptText+" (prompt "+strconv.Itoa(n+1)+")")
}

// operatorEnvelope is an operator prompt of text to agent id, as the CLI
// would admit it.
func operatorEnvelope(id, text string) messages.MessageEnvelope {
	return messages.MessageEnvelope{
		ID: messages.NewID("msg"), AgentID: id, CreatedAt: time.Now().UTC(), Kind: messages.KindOperatorPrompt,
		Origin: messages.OperatorOrigin("operator"), Priority: messages.PriorityNormal,
		Body:            messages.TextBody(text),
		DeliverySurface: messages.SurfaceCLIPrompt, AdmissionContext: messages.AdmissionLocalProcess,
	}
}

// awaitBrief reads stream id from seq next on, each time wake receives,
// until the brief of message msgID is durable; it returns the seq after
// that brief. A failure brief is an error: every bench turn must complete.
// wake must have been set up before msgID was admitted: awaitBrief waits
// for it before its first read.
func awaitBrief(ctx context.Context, st persistence.Store, wake <-chan struct{}, id, msgID string, next uint64) (uint64, error) {
	for {
		select {
		case <-wake:
		case <-ctx.Done():
			return next, fmt.Errorf("wait for the brief of %s in %s: %w", msgID, id, context.Cause(ctx))
		}
		evs, err := st.Read(ctx, id, next, math.MaxUint64, 0)
		if err != nil {
			return next, fmt.Errorf("read %s from seq %d: %w", id, next, err)
		}
		for _, ev := range evs {
			next = ev.Seq + 1
			if ev.Type != messages.EventBriefRecorded {
				continue
			}
			done, err := briefFor(ev, msgID)
			if done || err != nil {
				return next, err
			}
		}
	}
}

// driverWake is what wakes an agent's driver: its store's signal that a
// brief was appended (briefWatch), or else every append to its stream.
type driverWake struct {
	c     <-chan struct{}
	close func()
}

func briefsOrAppends(st persistence.Store, id string) driverWake {
	if w, ok := st.(*briefWatch); ok {
		return driverWake{c: w.watch(id), close: func() {}}
	}
	sub := st.Subscribe(id)
	return driverWake{c: sub.C, close: sub.Close}
}

// briefFor reports whether ev, a brief_recorded event, settles message
// msgID, and fails when it settles it as a failure.
func briefFor(ev messages.Event, msgID string) (bool, error) {
	p, err := ev.Decode()
	if err != nil {
		return false, fmt.Errorf("decode %s seq %d: %w", ev.AgentID, ev.Seq, err)
	}
	b := p.(messages.BriefRecorded).Brief
	switch {
	case b.RelatedMessageID != msgID:
		return false, nil
	case b.Kind != messages.BriefResult:
		return true, fmt.Errorf("turn of %s in %s ended with a %s brief: %s", msgID, ev.AgentID, b.Kind, b.Text)
	}
	return true, nil
}

// totalEvents sums the HighestSeq of the streams of agents 0..agents-1.
func totalEvents(ctx context.Context, st persistence.Store, agents int) (uint64, error) {
	var total uint64
	for i := range agents {
		seq, err := st.HighestSeq(ctx, agentName(i))
		if err != nil {
			return 0, fmt.Errorf("highest seq of %s: %w", agentName(i), err)
		}
		total += seq
	}
	return total, nil
}

// memory is a reading of the process's memory.
type memory struct {
	rss  int64  // resident set, bytes
	heap uint64 // Go heap in use, bytes
}

// Rest detection for restingMemory: the process is at rest once it has
// allocated less than restAllocBytes in every restWindow for restQuiet.
// Badger's compactions (a reopened store compacts what the run wrote) and
// cache admissions allocate megabytes in a window; an idle runtime next to
// nothing. restQuiet is longer than the random delay (under 1 s) before
// Badger's compactors first look for work after an open. restMaxWait
// bounds the wait on a machine that never rests.
const (
	restWindow     = 250 * time.Millisecond
	restQuiet      = 1500 * time.Millisecond
	restAllocBytes = 256 << 10
	restMaxWait    = time.Minute
)

// restingMemory waits until the process is at rest (see restWindow), so
// that no background work of the store is in flight, then returns
// settledMemory.
func restingMemory(ctx context.Context) memory {
	allocs := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	start := time.Now()
	quietSince := start
	for time.Since(start) < restMaxWait && ctx.Err() == nil {
		metrics.Read(allocs)
		from := allocs[0].Value.Uint64()
		time.Sleep(restWindow) // the measurement window itself
		metrics.Read(allocs)
		switch {
		case allocs[0].Value.Uint64()-from >= restAllocBytes:
			quietSince = time.Now()
		case time.Since(quietSince) >= restQuiet:
			return settledMemory()
		}
	}
	return settledMemory()
}

// settledMemory collects garbage, returns freed memory to the OS and reads
// the resident set and the heap in use. On a system without
// /proc/self/statm the resident set reads 0.
func settledMemory() memory {
	runtime.GC()
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return memory{rss: residentBytes(), heap: m.HeapInuse}
}

// residentBytes is the second field of /proc/self/statm (resident pages)
// times the page size, or 0 when it cannot be read.
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(b))
	if len(fields) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
