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
	"sync"
	"sync/atomic"
	"time"

	"github.com/holon-actors/holon-actors/persistence"
)

// JournalRecoveryDir is the sub-directory of JournalRecoveryConfig.Dir that
// holds the store.
const JournalRecoveryDir = "journal-recovery"

// populateBatch bounds the events of one Append while populating.
const populateBatch = 256

// JournalRecoveryConfig sets the workload of JournalRecovery.
type JournalRecoveryConfig struct {
	// Dir is the parent directory; the store goes into JournalRecoveryDir
	// under it, which must be missing or hold an empty store.
	Dir string
	// Streams is the number of agents to recover.
	Streams int
	// Events is the number of events in each stream.
	Events int
	// SnapshotBytes is the size of each stream's snapshot.
	SnapshotBytes int
	// Workers is the number of streams recovered at once; 0 means
	// runtime.GOMAXPROCS(0), as the runtime does at boot.
	Workers int
	// Keep leaves the store on disk; otherwise JournalRecovery removes the
	// sub-directory it created before it returns.
	Keep bool
	// Logger receives the store's logs; nil means the store's default.
	Logger *slog.Logger
}

// DefaultJournalRecoveryConfig returns the default workload: 10,000 streams
// of 100 events, each with a 1 KB snapshot, under dir.
func DefaultJournalRecoveryConfig(dir string) JournalRecoveryConfig {
	return JournalRecoveryConfig{Dir: dir, Streams: 10000, Events: 100, SnapshotBytes: 1024}
}

// Validate reports the first setting that cannot run.
func (c JournalRecoveryConfig) Validate() error {
	switch {
	case c.Dir == "":
		return errors.New("journal recovery bench: dir is empty")
	case c.Streams < 1:
		return fmt.Errorf("journal recovery bench: streams is %d, want at least 1", c.Streams)
	case c.Events < 1:
		return fmt.Errorf("journal recovery bench: events is %d, want at least 1", c.Events)
	case c.SnapshotBytes < 1:
		return fmt.Errorf("journal recovery bench: snapshot bytes is %d, want at least 1", c.SnapshotBytes)
	case c.Workers < 0:
		return fmt.Errorf("journal recovery bench: workers is %d, want 0 or more", c.Workers)
	}
	return nil
}

// snapshotSeq is where each stream's snapshot sits: nine tenths in, so
// recovery replays the last tenth of the journal.
func (c JournalRecoveryConfig) snapshotSeq() uint64 { return uint64(c.Events - c.Events/10) }

// JournalRecoveryResult is what JournalRecovery measured.
type JournalRecoveryResult struct {
	Streams         int     `json:"streams"`
	EventsPerStream int     `json:"events_per_stream"`
	SnapshotSeq     uint64  `json:"snapshot_seq"`
	Workers         int     `json:"workers"`
	PopulateSeconds float64 `json:"populate_seconds"` // untimed set-up, for reference
	// OpenMs is the time persistence.Open took, durable options.
	OpenMs float64 `json:"open_ms"`
	// RecoveryMs is OpenMs plus listing the streams and, for every stream,
	// loading its latest snapshot and reading the events after it.
	RecoveryMs      float64 `json:"recovery_ms"`
	EventsRead      int64   `json:"events_read"`
	SnapshotsLoaded int64   `json:"snapshots_loaded"`
}

// JournalRecovery writes cfg.Streams streams of cfg.Events events, each with
// a snapshot at snapshotSeq, closes the store, and then times what the
// runtime does at boot: open the store and, with a pool of cfg.Workers,
// load every stream's latest snapshot and read its tail. It fails when a
// snapshot or an event is missing.
func JournalRecovery(ctx context.Context, cfg JournalRecoveryConfig) (JournalRecoveryResult, error) {
	if err := cfg.Validate(); err != nil {
		return JournalRecoveryResult{}, err
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	dir := filepath.Join(cfg.Dir, JournalRecoveryDir)
	res := JournalRecoveryResult{Streams: cfg.Streams, EventsPerStream: cfg.Events, SnapshotSeq: cfg.snapshotSeq(), Workers: cfg.Workers}

	began := time.Now()
	created, err := populate(ctx, cfg, dir)
	if created && !cfg.Keep {
		defer os.RemoveAll(dir)
	}
	if err != nil {
		return JournalRecoveryResult{}, err
	}
	res.PopulateSeconds = time.Since(began).Seconds()

	began = time.Now()
	o := persistence.DefaultOptions(dir)
	o.Logger = cfg.Logger
	st, err := persistence.Open(o)
	if err != nil {
		return JournalRecoveryResult{}, fmt.Errorf("open %s: %w", dir, err)
	}
	res.OpenMs = ms(time.Since(began))
	err = recoverAll(ctx, cfg, st, &res)
	res.RecoveryMs = ms(time.Since(began))
	if err = errors.Join(err, closeStore(st, dir)); err != nil {
		return JournalRecoveryResult{}, err
	}
	return res, nil
}

// populate writes the streams and their snapshots without fsync (set-up
// only) and closes the store.
func populate(ctx context.Context, cfg JournalRecoveryConfig, dir string) (created bool, err error) {
	o := persistence.DefaultOptions(dir)
	o.NoSync = true
	o.Logger = cfg.Logger
	st, created, err := openFresh(ctx, o)
	if err != nil {
		return false, err
	}
	at := time.Now().UTC()
	err = forEachStream(ctx, cfg.Streams, cfg.Workers, func(ctx context.Context, stream string) error {
		return populateStream(ctx, st, cfg, stream, at)
	})
	return created, errors.Join(err, closeStore(st, dir))
}

func populateStream(ctx context.Context, st persistence.Store, cfg JournalRecoveryConfig, stream string, at time.Time) error {
	events, err := streamEvents(stream, cfg.Events, at)
	if err != nil {
		return err
	}
	for len(events) > 0 {
		n := min(populateBatch, len(events))
		if _, err := st.Append(ctx, stream, events[:n]); err != nil {
			return fmt.Errorf("populate %s: %w", stream, err)
		}
		events = events[n:]
	}
	seq := cfg.snapshotSeq()
	s := persistence.Snapshot{Stream: stream, Seq: seq, Timestamp: at, Data: snapshotData(stream, seq, cfg.SnapshotBytes)}
	if err := st.SaveSnapshot(ctx, s); err != nil {
		return fmt.Errorf("populate %s: save snapshot at %d: %w", stream, seq, err)
	}
	return nil
}

// recoverAll lists the streams and recovers each one, counting into res.
func recoverAll(ctx context.Context, cfg JournalRecoveryConfig, st persistence.Store, res *JournalRecoveryResult) error {
	streams, err := st.Streams(ctx)
	if err != nil {
		return fmt.Errorf("list streams: %w", err)
	}
	if len(streams) != cfg.Streams {
		return fmt.Errorf("list streams: found %d, want %d", len(streams), cfg.Streams)
	}
	var events, snapshots atomic.Int64
	err = forEach(ctx, streams, cfg.Workers, func(ctx context.Context, stream string) error {
		n, err := recoverStream(ctx, st, stream, cfg.snapshotSeq(), uint64(cfg.Events))
		if err == nil {
			events.Add(int64(n))
			snapshots.Add(1)
		}
		return err
	})
	res.EventsRead, res.SnapshotsLoaded = events.Load(), snapshots.Load()
	return err
}

// recoverStream loads stream's latest snapshot and reads every event after
// it, checking both against what populate wrote. It returns the events read.
func recoverStream(ctx context.Context, st persistence.Store, stream string, snapSeq, highest uint64) (int, error) {
	snap, ok, err := st.LoadSnapshot(ctx, stream, persistence.LatestSnapshot())
	switch {
	case err != nil:
		return 0, fmt.Errorf("recover %s: load snapshot: %w", stream, err)
	case !ok || snap.Seq != snapSeq:
		return 0, fmt.Errorf("recover %s: snapshot found %t at seq %d, want seq %d", stream, ok, snap.Seq, snapSeq)
	}
	events, err := st.Read(ctx, stream, snap.Seq+1, math.MaxUint64, 0)
	if err != nil {
		return 0, fmt.Errorf("recover %s: read after seq %d: %w", stream, snap.Seq, err)
	}
	want := int(highest - snapSeq)
	if len(events) != want || want > 0 && events[want-1].Seq != highest {
		return 0, fmt.Errorf("recover %s: read %d events after seq %d, want %d ending at seq %d", stream, len(events), snap.Seq, want, highest)
	}
	return len(events), nil
}

// forEachStream runs fn for the streams named streamName(0..n-1).
func forEachStream(ctx context.Context, n, workers int, fn func(context.Context, string) error) error {
	streams := make([]string, n)
	for i := range streams {
		streams[i] = streamName(i)
	}
	return forEach(ctx, streams, workers, fn)
}

// forEach runs fn for every stream on a pool of workers goroutines. The
// first error cancels the rest and is returned.
func forEach(ctx context.Context, streams []string, workers int, fn func(context.Context, string) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	work := make(chan string) // fed by forEach, closed when every stream is handed out or ctx ends
	var wg sync.WaitGroup
	for range min(workers, len(streams)) {
		wg.Go(func() {
			for s := range work {
				if err := fn(ctx, s); err != nil {
					cancel(err)
				}
			}
		})
	}
feed:
	for _, s := range streams {
		select {
		case work <- s:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	return context.Cause(ctx)
}
