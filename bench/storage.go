package bench

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// StorageDir is the sub-directory of StorageConfig.Dir that holds the stores.
const StorageDir = "storage"

// StorageConfig sets the workload of Storage.
type StorageConfig struct {
	// Dir is the parent directory; the stores go under StorageDir in it.
	Dir string
	// Turns are written to one agent, once with retention and once without.
	Turns int
	// KeepEvents is the retention window of the run with retention: the
	// newest KeepEvents events stay in the journal (no age bound, so the
	// run does not depend on the clock).
	KeepEvents uint64
	// SnapshotEvery is how many turns lie between the agent's snapshots.
	SnapshotEvery int
	// RetainEvery is how many turns lie between retention passes.
	RetainEvery int
	// JournalBytes is the size of the journal the listing and status
	// calls are timed on; Agents share it.
	JournalBytes int64
	Agents       int
	// Calls is how many times each call is timed.
	Calls int
	// Keep leaves the stores on disk.
	Keep   bool
	Logger *slog.Logger
}

// DefaultStorageConfig returns the default workload: 100,000 turns, the
// newest 10,000 events kept, and 1 GiB of journal over 1,000 agents.
func DefaultStorageConfig(dir string) StorageConfig {
	return StorageConfig{Dir: dir, Turns: 100_000, KeepEvents: 10_000, SnapshotEvery: 1000, RetainEvery: 10_000,
		JournalBytes: 1 << 30, Agents: 1000, Calls: 20}
}

// Validate reports the first setting that cannot run.
func (c StorageConfig) Validate() error {
	switch {
	case c.Dir == "":
		return errors.New("storage bench: dir is empty")
	case c.Turns < 10:
		return fmt.Errorf("storage bench: turns is %d, want at least 10", c.Turns)
	case c.SnapshotEvery < 1 || c.RetainEvery < 1:
		return fmt.Errorf("storage bench: snapshot-every %d and retain-every %d must be at least 1", c.SnapshotEvery, c.RetainEvery)
	case c.Agents < 1 || c.Calls < 1:
		return fmt.Errorf("storage bench: agents %d and calls %d must be at least 1", c.Agents, c.Calls)
	case c.JournalBytes < 1<<20:
		return fmt.Errorf("storage bench: journal bytes %d is below 1 MiB", c.JournalBytes)
	}
	return nil
}

// StorageResult is what Storage measured.
type StorageResult struct {
	Turns         int     `json:"turns"`
	EventsPerTurn float64 `json:"events_per_turn"`
	// Retention is the policy of the run with retention.
	Retention messages.RetentionPolicy `json:"retention"`
	// BytesOnDisk is the data directory (journal, snapshots, archive
	// segments: every file) after Turns turns with retention on; the
	// archive's share is ArchiveBytes. BytesOnDiskRetentionOff is the same
	// workload with retention off.
	BytesOnDisk             int64 `json:"bytes_on_disk"`
	ArchiveBytes            int64 `json:"archive_bytes"`
	BytesOnDiskRetentionOff int64 `json:"bytes_on_disk_retention_off"`
	ArchivedEvents          int   `json:"archived_events"`
	// JournalEvents is how many events the journal itself still holds
	// with retention on (the rest are archived).
	JournalEvents    uint64  `json:"journal_events"`
	RetentionSeconds float64 `json:"retention_seconds"`
	// JournalBytes is the data directory the listing and status were
	// timed on, over JournalAgents agents.
	JournalBytes  int64 `json:"journal_bytes"`
	JournalAgents int   `json:"journal_agents"`
	// CompactionSettleMs is how long the store, reopened over that
	// journal, took to finish the compactions its fill left due (the fill
	// skips syncs, so it writes faster than the engine compacts); the
	// calls are timed after it.
	CompactionSettleMs float64 `json:"compaction_settle_ms"`
	// Dormant… are the listing and status times right after a runtime's
	// start over the journal: recovery activates only agents with due
	// work, so the agents are dormant, listed from their stream headers.
	DormantFirstListMs   float64 `json:"dormant_first_list_ms"`
	DormantListP50Ms     float64 `json:"dormant_list_p50_ms"`
	DormantListMaxMs     float64 `json:"dormant_list_max_ms"`
	DormantFirstStatusMs float64 `json:"dormant_first_status_ms"`
	DormantStatusP50Ms   float64 `json:"dormant_status_p50_ms"`
	DormantStatusMaxMs   float64 `json:"dormant_status_max_ms"`
	// ListP50Ms … are the times of `agents list` (GET /agents) and the
	// runtime status (GET /status) through the control socket once every
	// agent has been activated (replayed its journal, and holds its
	// conversation); the first call of each is timed apart (FirstListMs,
	// FirstStatusMs).
	FirstListMs   float64 `json:"first_list_ms"`
	ListP50Ms     float64 `json:"list_p50_ms"`
	ListMaxMs     float64 `json:"list_max_ms"`
	FirstStatusMs float64 `json:"first_status_ms"`
	StatusP50Ms   float64 `json:"status_p50_ms"`
	StatusMaxMs   float64 `json:"status_max_ms"`
}

// Storage measures bounded disk. It records the events of a real turn
// (the bench turns workload: two zero-latency model rounds around one
// echo call) on a runtime, then writes Turns copies of that turn (fresh
// ids, timestamps ten seconds apart, a snapshot every SnapshotEvery turns)
// to one agent directly through the store, once with retention applied
// every RetainEvery turns and once without, and measures both data
// directories. Then it fills a journal of JournalBytes the same way over
// Agents agents, reopens it and waits for the compactions the fill left
// due, starts a runtime and the control API over it, and times the agent
// listing and the runtime status with the agents dormant (as recovery
// leaves them), then once every agent has been activated (replayed its
// journal). The writes skip the sync (Options.NoSync): sizes, not write
// speed, are measured.
func Storage(ctx context.Context, cfg StorageConfig) (StorageResult, error) {
	if err := cfg.Validate(); err != nil {
		return StorageResult{}, err
	}
	root := filepath.Join(cfg.Dir, StorageDir)
	tpl, snap, err := recordTurn(ctx, filepath.Join(root, "template"), cfg)
	if err != nil {
		return StorageResult{}, err
	}
	res := StorageResult{Turns: cfg.Turns, EventsPerTurn: float64(len(tpl.events)),
		Retention: messages.RetentionPolicy{Mode: messages.RetentionArchive, KeepEvents: cfg.KeepEvents}}
	if err := storageRun(ctx, cfg, filepath.Join(root, "on"), tpl, snap, &res, true); err != nil {
		return StorageResult{}, err
	}
	if err := storageRun(ctx, cfg, filepath.Join(root, "off"), tpl, snap, &res, false); err != nil {
		return StorageResult{}, err
	}
	if err := listingRun(ctx, cfg, filepath.Join(root, "big"), tpl, &res); err != nil {
		return StorageResult{}, err
	}
	return res, nil
}

// turnTemplate is one real turn's events, to be copied.
type turnTemplate struct {
	events []messages.Event
	ids    []string // id-like strings in the events, made fresh per copy
}

// idPattern finds the ids in a turn's events: a prefix and a ULID
// ("msg_01M86…", "turn_01M86…").
var idPattern = regexp.MustCompile(`[a-z]+_[0-9A-HJKMNP-TV-Z]{26}`)

// recordTurn runs three bench turns on one agent of a runtime in dir and
// returns the events of the third (from its message_admitted on) and the
// agent's snapshot data (nil when it wrote none).
func recordTurn(ctx context.Context, dir string, cfg StorageConfig) (turnTemplate, []byte, error) {
	var tpl turnTemplate
	var snap []byte
	o := persistence.DefaultOptions(dir)
	o.Logger = cfg.Logger
	err := inFreshStore(ctx, o, dir, cfg.Keep, func(st *persistence.BadgerStore) (err error) {
		rt, err := newBenchRuntime(st, cfg.Logger)
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, closeRuntime(rt)) }()
		if _, _, err := driveAll(ctx, rt, st, 1, 3, nil); err != nil {
			return err
		}
		evs, err := st.Read(ctx, agentName(0), 1, ^uint64(0), 0)
		if err != nil {
			return err
		}
		admitted := 0
		for i, ev := range evs {
			if ev.Type == messages.EventMessageAdmitted {
				if admitted++; admitted == 3 {
					tpl.events = evs[i:]
				}
			}
		}
		if len(tpl.events) == 0 {
			return errors.New("storage bench: the recorded turns have no third message_admitted event")
		}
		if s, ok, err := st.LoadSnapshot(ctx, agentName(0), persistence.LatestSnapshot()); err == nil && ok {
			snap = s.Data
		}
		return nil
	}, nil)
	if err != nil {
		return tpl, nil, fmt.Errorf("record a turn: %w", err)
	}
	seen := map[string]bool{}
	for _, ev := range tpl.events {
		for _, id := range append(idPattern.FindAllString(string(ev.Payload), -1), ev.ID) {
			if !seen[id] {
				seen[id] = true
				tpl.ids = append(tpl.ids, id)
			}
		}
	}
	if snap == nil {
		snap = snapshotData(agentName(0), 0, 4096)
	}
	return tpl, snap, nil
}

// turnEpoch is when the first copied turn happened; copies are
// turnSpacing apart.
var turnEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

const turnSpacing = 10 * time.Second

// turn returns copy k of the template for agent: every id made fresh (its
// ULID's first random characters replaced, the same for the whole turn,
// so ids stay well-formed and distinct), every event at turnEpoch +
// k×turnSpacing.
func (t turnTemplate) turn(agent string, k int) []messages.Event {
	tag := randomCrockford(8)
	fresh := make([]string, 0, 2*len(t.ids)+2)
	for _, id := range t.ids {
		p := strings.IndexByte(id, '_') + 1
		fresh = append(fresh, id, id[:p+10]+tag+id[p+18:])
	}
	fresh = append(fresh, `"`+agentName(0)+`"`, `"`+agent+`"`)
	r := strings.NewReplacer(fresh...)
	at := turnEpoch.Add(time.Duration(k) * turnSpacing)
	out := make([]messages.Event, len(t.events))
	for i, ev := range t.events {
		ev.ID, ev.AgentID, ev.Seq = r.Replace(ev.ID), agent, 0
		ev.At, ev.Payload = at.Add(time.Duration(i)*time.Millisecond), []byte(r.Replace(string(ev.Payload)))
		out[i] = ev
	}
	return out
}

// randomCrockford returns n random characters of the ULID alphabet.
func randomCrockford(n int) string {
	const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[b[i]%32]
	}
	return string(b)
}

// writeTurns appends turns from..to-1 of the template to agent, ten turns
// per Append, a snapshot every SnapshotEvery turns (none when snap is
// nil), calling each(k) after turn k when set.
func writeTurns(ctx context.Context, st persistence.Store, cfg StorageConfig, tpl turnTemplate, snap []byte,
	agent string, from, to int, each func(k int) error) error {
	var batch []messages.Event
	for k := from; k < to; k++ {
		batch = append(batch, tpl.turn(agent, k)...)
		if (k+1)%10 != 0 && k+1 != to && (k+1)%cfg.SnapshotEvery != 0 {
			continue
		}
		first, err := st.Append(ctx, agent, batch)
		if err != nil {
			return fmt.Errorf("append turn %d of %s: %w", k, agent, err)
		}
		last := first + uint64(len(batch)) - 1
		batch = batch[:0]
		if snap != nil && (k+1)%cfg.SnapshotEvery == 0 {
			if err := saveSnapshot(ctx, st, agent, last, snap); err != nil {
				return err
			}
		}
		if each != nil {
			if err := each(k); err != nil {
				return err
			}
		}
	}
	return nil
}

// saveSnapshot stores snap at seq and drops the older snapshots, as an
// agent does.
func saveSnapshot(ctx context.Context, st persistence.Store, agent string, seq uint64, snap []byte) error {
	s := persistence.Snapshot{Stream: agent, Seq: seq, Timestamp: turnEpoch, Data: snap}
	if err := st.SaveSnapshot(ctx, s); err != nil {
		return err
	}
	return st.DeleteSnapshots(ctx, agent, persistence.AtOrBelow(seq-1))
}

// storageRun writes cfg.Turns turns to one agent in a fresh store in dir,
// with retention when on, and records the directory's size in res.
func storageRun(ctx context.Context, cfg StorageConfig, dir string, tpl turnTemplate, snap []byte, res *StorageResult, on bool) error {
	o := persistence.DefaultOptions(dir)
	o.Logger, o.NoSync = cfg.Logger, true
	agent := agentName(0)
	var spent time.Duration
	return inFreshStore(ctx, o, dir, cfg.Keep, func(st *persistence.BadgerStore) error {
		r := &persistence.Retention{Store: st, Log: cfg.Logger,
			Policies: messages.RetentionPolicies{Default: &res.Retention}}
		retain := func(k int) error {
			if !on || (k+1)%cfg.RetainEvery != 0 && k+1 != cfg.Turns {
				return nil
			}
			began := time.Now()
			moved, err := r.RunOnce(ctx, turnEpoch.Add(time.Duration(k+1)*turnSpacing))
			spent += time.Since(began)
			for _, m := range moved {
				res.ArchivedEvents += m.Archived
			}
			return err
		}
		if err := writeTurns(ctx, st, cfg, tpl, snap, agent, 0, cfg.Turns, retain); err != nil || !on {
			return err
		}
		high, err := st.HighestSeq(ctx, agent)
		if err != nil {
			return err
		}
		from, err := st.RetainedFrom(ctx, agent)
		res.JournalEvents = high + 1 - from
		return err
	}, func() error {
		total, err := dirBytes(dir)
		if err != nil {
			return err
		}
		if !on {
			res.BytesOnDiskRetentionOff = total
			return nil
		}
		res.BytesOnDisk, res.RetentionSeconds = total, spent.Seconds()
		res.ArchiveBytes, err = dirBytes(filepath.Join(dir, "archive"))
		return err
	})
}

// fillRound is how many turns listingRun writes to each agent between two
// measures of the journal's size.
const fillRound = 50

// listingRun fills a journal of about cfg.JournalBytes over cfg.Agents
// agents in dir, then times the listing and the runtime status on a
// runtime over it.
func listingRun(ctx context.Context, cfg StorageConfig, dir string, tpl turnTemplate, res *StorageResult) error {
	res.JournalAgents = cfg.Agents
	data := filepath.Join(dir, "data")
	o := persistence.DefaultOptions(data)
	o.Logger, o.NoSync = cfg.Logger, true
	err := inFreshStore(ctx, o, dir, true, func(st *persistence.BadgerStore) error {
		for k := 0; ; k += fillRound {
			for i := range cfg.Agents {
				if err := writeTurns(ctx, st, cfg, tpl, nil, agentName(i), k, k+fillRound, nil); err != nil {
					return err
				}
			}
			n, err := dirBytes(data)
			if err != nil || n >= cfg.JournalBytes {
				res.JournalBytes = n
				return err
			}
		}
	}, nil)
	if err != nil {
		return err
	}
	o.NoSync = false
	return inStore(o, dir, cfg.Keep, func(st *persistence.BadgerStore) error {
		return timeListing(ctx, cfg, st, filepath.Join(dir, "run", "control.sock"), res)
	})
}

// inStore opens the existing store o, runs f and closes it; root is
// removed afterwards unless keep.
func inStore(o persistence.Options, root string, keep bool, f func(st *persistence.BadgerStore) error) error {
	if !keep {
		defer os.RemoveAll(root)
	}
	st, err := persistence.Open(o)
	if err != nil {
		return fmt.Errorf("reopen %s: %w", o.Dir, err)
	}
	return errors.Join(f(st), closeStore(st, o.Dir))
}

// activationTimeout bounds an agent's first activation in timeListing:
// it replays a journal of JournalBytes/Agents with no snapshot, which a
// loaded machine takes longer than a request's default bound to do.
const activationTimeout = 5 * time.Minute

// timeListing waits for st's compactions, starts a runtime (recovering,
// as a daemon's start does) and the control API over st, and times
// GET /agents and GET /status with the agents dormant, then again once
// every agent has been activated.
func timeListing(ctx context.Context, cfg StorageConfig, st *persistence.BadgerStore, sock string, res *StorageResult) (err error) {
	began := time.Now()
	if err := compacted(ctx, st); err != nil {
		return err
	}
	res.CompactionSettleMs = ms(time.Since(began))
	rt, err := newBenchRuntimeOpts(st, actors.RuntimeOptions{Logger: cfg.Logger, RequestTimeout: activationTimeout})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, closeRuntime(rt)) }()
	if _, err := rt.Recover(ctx); err != nil {
		return err
	}
	_, stop, err := serveControl(control.Config{Runtime: rt, Store: st}, sock)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, stop()) }()
	c := control.NewUnixClient(sock)
	defer c.Close()
	list, status, err := timeListAndStatus(ctx, c, cfg)
	if err != nil {
		return err
	}
	res.DormantFirstListMs, res.DormantListP50Ms, res.DormantListMaxMs = list[0], list[1], list[2]
	res.DormantFirstStatusMs, res.DormantStatusP50Ms, res.DormantStatusMaxMs = status[0], status[1], status[2]
	// Each agent replays its journal once, as it does at its first
	// message after a start.
	if err := activateAll(ctx, rt, cfg.Agents); err != nil {
		return err
	}
	if err := settleAll(ctx, rt, cfg.Agents); err != nil { // storage_settle.go
		return err
	}
	if list, status, err = timeListAndStatus(ctx, c, cfg); err != nil {
		return err
	}
	res.FirstListMs, res.ListP50Ms, res.ListMaxMs = list[0], list[1], list[2]
	res.FirstStatusMs, res.StatusP50Ms, res.StatusMaxMs = status[0], status[1], status[2]
	return nil
}

// timeListAndStatus times cfg.Calls listings (each must show every agent)
// and runtime statuses through c: the first call, then p50 and max (ms).
func timeListAndStatus(ctx context.Context, c *control.Client, cfg StorageConfig) (list, status [3]float64, err error) {
	if list, err = timeCallsMs(cfg.Calls, func() error {
		agents, err := c.Agents(ctx)
		if err == nil && len(agents) < cfg.Agents {
			err = fmt.Errorf("storage bench: agents list shows %d agents, want %d", len(agents), cfg.Agents)
		}
		return err
	}); err != nil {
		return list, status, err
	}
	status, err = timeCallsMs(cfg.Calls, func() error { _, err := c.RuntimeStatus(ctx); return err })
	return list, status, err
}

// timeCallsMs is timeCalls as first, p50 and max in milliseconds.
func timeCallsMs(n int, f func() error) ([3]float64, error) {
	first, lat, err := timeCalls(n, f)
	if err != nil {
		return [3]float64{}, err
	}
	p50, _, maxL := latencySummary(lat)
	return [3]float64{ms(first), ms(p50), ms(maxL)}, nil
}

// compactionPoll is how often compacted looks at the store.
const compactionPoll = 100 * time.Millisecond

// compacted waits until st has no compaction due, as a store that has
// been running at its size has not (a daemon's journal grows at the pace
// of its agents' turns, which its compactions keep up with).
func compacted(ctx context.Context, st *persistence.BadgerStore) error {
	t := time.NewTicker(compactionPoll)
	defer t.Stop()
	for st.Compacting() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("storage bench: waiting for the store's compactions: %w", ctx.Err())
		case <-t.C:
		}
	}
	return nil
}

// timeCalls times f once, then n more times.
func timeCalls(n int, f func() error) (time.Duration, []time.Duration, error) {
	lat := make([]time.Duration, 0, n+1)
	for range n + 1 {
		began := time.Now()
		if err := f(); err != nil {
			return 0, nil, err
		}
		lat = append(lat, time.Since(began))
	}
	return lat[0], lat[1:], nil
}

// dirBytes is the disk every regular file under dir takes (0 when
// missing): its allocated blocks, not its length, since an open Badger
// store's memtable and value-log files are long and mostly holes (counting
// lengths, the "1 GiB" journal of listingRun held some 300 MB less).
func dirBytes(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, countAllocated(&total))
	return total, err
}

// countAllocated adds each regular file's allocated bytes to total; a file
// gone between the directory's read and its own (a table Badger compacted
// away, a memtable log it flushed) counts as nothing, not as an error.
func countAllocated(total *int64) fs.WalkDirFunc {
	return func(_ string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err == nil {
			*total += allocatedBytes(info)
		}
		return err
	}
}
