package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"path/filepath"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// RecoveryDir is the sub-directory of RecoveryConfig.Dir that holds the
// store.
const RecoveryDir = "recovery"

// The journal of a bench agent: two events when it is created, then about
// twelve per turn (admission, start, two model rounds of two events, the
// tool call's two, the terminal and brief, two status changes).
const (
	createEvents = 2
	turnEvents   = 12
)

// recoverySamples is how many agents Recovery inspects after recovery.
const recoverySamples = 100

// RecoveryConfig sets the workload of Recovery.
type RecoveryConfig struct {
	// Dir is the parent directory; the store goes into RecoveryDir under
	// it, which must be missing or hold an empty store.
	Dir string
	// Agents is the number of agents to recover.
	Agents int
	// Events is about how many journal events each agent has: Recovery
	// runs as many whole turns as come nearest to it.
	Events int
	// Crash ends the populating runtime as a crash would (Runtime.Halt: no
	// snapshots saved at shutdown), so no agent's snapshot is current at
	// recovery: an agent is left dormant on its stream header (it settled
	// before the crash) or replays its journal. Otherwise it is closed gracefully: Close passivates the idle
	// agents, and recovery leaves them dormant on their snapshots.
	Crash bool
	// Keep leaves the store on disk; otherwise Recovery removes the
	// sub-directory it created before it returns.
	Keep bool
	// Logger receives the store's and protoactor's logs; nil means the
	// store's default and no protoactor logs.
	Logger *slog.Logger
}

// DefaultRecoveryConfig returns the default workload: 10,000 agents of
// about 100 events under dir.
func DefaultRecoveryConfig(dir string) RecoveryConfig {
	return RecoveryConfig{Dir: dir, Agents: 10000, Events: 100}
}

// Validate reports the first setting that cannot run.
func (c RecoveryConfig) Validate() error {
	return checkWorkload("recovery", c.Dir, count{"agents", c.Agents}, count{"events", c.Events})
}

// turns is the number of turns per agent whose journal comes nearest to
// c.Events events; at least one.
func (c RecoveryConfig) turns() int {
	return max(1, int(math.Round(float64(c.Events-createEvents)/turnEvents)))
}

// RecoveryResult is what Recovery measured.
type RecoveryResult struct {
	Agents int  `json:"agents"`
	Crash  bool `json:"crash"`
	// TurnsPerAgent is how many turns populated each agent's journal, and
	// EventsPerAgent the journal events each agent has on average.
	TurnsPerAgent   int     `json:"turns_per_agent"`
	EventsPerAgent  float64 `json:"events_per_agent"`
	PopulateSeconds float64 `json:"populate_seconds"` // untimed set-up, for reference
	// OpenMs is the time persistence.Open took, durable options.
	OpenMs float64 `json:"open_ms"`
	// RecoveryMs is OpenMs plus starting the runtime and its Recover call,
	// which returns once every agent is ready: activated and rebuilt from
	// its snapshot and journal tail, or left dormant on a snapshot at its
	// last event (its first message activates it).
	RecoveryMs float64 `json:"recovery_ms"`
	// AgentsRecovered is the number of agents in the journal after
	// recovery, and AgentsActivated how many of them Recover activated.
	AgentsRecovered int `json:"agents_recovered"`
	AgentsActivated int `json:"agents_activated"`
}

// Recovery populates cfg.Agents agents by running real turns through a
// runtime (unsynced: set-up only), closes it and the store, and then times
// a restart: open the store, start a runtime and Recover every agent. It
// then checks a sample of agents against their journals: every recovered
// agent must be idle at its journal's last event.
func Recovery(ctx context.Context, cfg RecoveryConfig) (RecoveryResult, error) {
	if err := cfg.Validate(); err != nil {
		return RecoveryResult{}, err
	}
	dir := filepath.Join(cfg.Dir, RecoveryDir)
	res := RecoveryResult{Agents: cfg.Agents, Crash: cfg.Crash, TurnsPerAgent: cfg.turns()}

	// The journals are written without fsync (populating is not what is
	// measured), then reopened as a start would.
	fill := persistence.DefaultOptions(dir)
	fill.NoSync = true
	fill.Logger = cfg.Logger
	began := time.Now()
	err := inFreshStore(ctx, fill, dir, cfg.Keep, func(st *persistence.BadgerStore) error {
		events, err := populateAgents(ctx, cfg, st)
		res.EventsPerAgent = float64(events) / float64(cfg.Agents)
		return err
	}, func() error {
		res.PopulateSeconds = time.Since(began).Seconds() // the store closed
		return reopenAndRecover(ctx, cfg, dir, &res)
	})
	if err != nil {
		return RecoveryResult{}, err
	}
	return res, nil
}

// reopenAndRecover opens the populated store in dir, timing the open, and
// recovers every agent (see recoverAgents).
func reopenAndRecover(ctx context.Context, cfg RecoveryConfig, dir string, res *RecoveryResult) error {
	o := persistence.DefaultOptions(dir)
	o.Logger = cfg.Logger
	began := time.Now()
	st, err := persistence.Open(o)
	if err != nil {
		return fmt.Errorf("open %s: %w", dir, err)
	}
	res.OpenMs = ms(time.Since(began))
	err = recoverAgents(ctx, cfg, st, began, res)
	return errors.Join(err, closeStore(st, dir))
}

// populateAgents runs cfg.turns() turns on each agent over st and closes
// (or, with cfg.Crash, halts) the runtime. It returns the journal events
// written.
func populateAgents(ctx context.Context, cfg RecoveryConfig, st persistence.Store) (uint64, error) {
	if err := populateRun(ctx, cfg, st); err != nil {
		return 0, err
	}
	return totalEvents(ctx, st, cfg.Agents)
}

func populateRun(ctx context.Context, cfg RecoveryConfig, st persistence.Store) (err error) {
	rt, err := newBenchRuntime(st, cfg.Logger)
	if err != nil {
		return err
	}
	defer func() {
		if cfg.Crash {
			err = errors.Join(err, rt.Halt())
		} else {
			err = errors.Join(err, closeRuntime(rt))
		}
	}()
	_, _, err = driveAll(ctx, rt, st, cfg.Agents, cfg.turns(), nil)
	return err
}

// recoverAgents starts a runtime over st and recovers every agent, setting
// res.RecoveryMs from began; then it checks the recovered agents and closes
// the runtime.
func recoverAgents(ctx context.Context, cfg RecoveryConfig, st *persistence.BadgerStore, began time.Time, res *RecoveryResult) (err error) {
	rt, err := newBenchRuntime(st, cfg.Logger)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, closeRuntime(rt)) }()
	open, err := rt.Recover(ctx)
	res.RecoveryMs = ms(time.Since(began))
	if err != nil {
		return err
	}
	if len(open) > 0 {
		return fmt.Errorf("recover: %d agents have open work (e.g. %s), want none", len(open), open[0])
	}
	streams, err := st.Streams(ctx)
	if err != nil {
		return fmt.Errorf("list streams: %w", err)
	}
	if len(streams) != cfg.Agents {
		return fmt.Errorf("recover: found %d agents, want %d", len(streams), cfg.Agents)
	}
	res.AgentsRecovered = len(streams)
	res.AgentsActivated = len(rt.Active())
	return checkRecovered(ctx, rt, st, cfg.Agents)
}

// checkRecovered inspects recoverySamples agents spread over 0..agents-1:
// each must be idle with its last journal event applied.
func checkRecovered(ctx context.Context, rt *actors.Runtime, st persistence.Store, agents int) error {
	step := max(1, agents/recoverySamples)
	for i := 0; i < agents; i += step {
		id := agentName(i)
		s, err := rt.State(ctx, id)
		if err != nil {
			return fmt.Errorf("state of %s: %w", id, err)
		}
		seq, err := st.HighestSeq(ctx, id)
		if err != nil {
			return fmt.Errorf("highest seq of %s: %w", id, err)
		}
		if s.LastSeq != seq || s.Status != messages.StatusAwakeIdle || s.Turn != nil {
			return fmt.Errorf("recovered %s at seq %d, status %s, turn in flight %t; want seq %d, %s, no turn",
				id, s.LastSeq, s.Status, s.Turn != nil, seq, messages.StatusAwakeIdle)
		}
	}
	return nil
}
