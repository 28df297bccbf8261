package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// Sub-directories of JournalConfig.Dir, one fresh store per run.
const (
	JournalDurableDir  = "journal-durable"
	JournalUnsyncedDir = "journal-unsynced"
)

// JournalConfig sets the workload of Journal.
type JournalConfig struct {
	// Dir is the parent directory. Journal writes each run into its own
	// sub-directory (JournalDurableDir, JournalUnsyncedDir), which must be
	// missing or hold an empty store.
	Dir string
	// Streams is the number of concurrent writers, one stream (agent) each.
	Streams int
	// Events is the number of events appended to each stream.
	Events int
	// Batch is the number of events per Append call; 1 journals every
	// admitted message on its own, as admission does.
	Batch int
	// Keep leaves the stores on disk; otherwise Journal removes the
	// sub-directories it created before it returns.
	Keep bool
	// Logger receives the store's logs; nil means the store's default.
	Logger *slog.Logger
}

// DefaultJournalConfig returns the default workload: 100 streams of 1,000
// single-event appends under dir.
func DefaultJournalConfig(dir string) JournalConfig {
	return JournalConfig{Dir: dir, Streams: 100, Events: 1000, Batch: 1}
}

// Validate reports the first setting that cannot run.
func (c JournalConfig) Validate() error {
	switch {
	case c.Dir == "":
		return errors.New("journal bench: dir is empty")
	case c.Streams < 1:
		return fmt.Errorf("journal bench: streams is %d, want at least 1", c.Streams)
	case c.Events < 1:
		return fmt.Errorf("journal bench: events is %d, want at least 1", c.Events)
	case c.Batch < 1:
		return fmt.Errorf("journal bench: batch is %d, want at least 1", c.Batch)
	}
	return nil
}

// JournalResult is what Journal measured. Latencies and throughput of the
// durable run are the ones that count; the unsynced run (no fsync, not
// durable) is the ceiling the storage engine allows.
type JournalResult struct {
	Streams     int `json:"streams"`
	Events      int `json:"events"` // per stream
	Batch       int `json:"batch"`
	TotalEvents int `json:"total_events"`

	DurableSeconds      float64 `json:"durable_seconds"`
	DurableEventsPerSec float64 `json:"durable_events_per_sec"`
	// Append latencies of the durable run, per Append call, in milliseconds.
	AppendP50Ms float64 `json:"append_p50_ms"`
	AppendP99Ms float64 `json:"append_p99_ms"`
	AppendMaxMs float64 `json:"append_max_ms"`

	UnsyncedSeconds      float64 `json:"unsynced_seconds"`
	UnsyncedEventsPerSec float64 `json:"unsynced_events_per_sec"`

	// BytesPerEvent is the durable store's size on disk after Close (see
	// storeBytes for what is counted) divided by TotalEvents.
	BytesPerEvent float64 `json:"bytes_per_event"`
}

// Journal appends the same events twice, into two fresh stores under
// cfg.Dir: first durable (persistence.DefaultOptions), then with NoSync. In
// each run every stream has its own goroutine, which appends cfg.Events
// events in calls of cfg.Batch and times each call.
func Journal(ctx context.Context, cfg JournalConfig) (JournalResult, error) {
	if err := cfg.Validate(); err != nil {
		return JournalResult{}, err
	}
	data, err := journalData(cfg)
	if err != nil {
		return JournalResult{}, err
	}
	res := JournalResult{Streams: cfg.Streams, Events: cfg.Events, Batch: cfg.Batch, TotalEvents: cfg.Streams * cfg.Events}

	durable := persistence.DefaultOptions(filepath.Join(cfg.Dir, JournalDurableDir))
	durable.Logger = cfg.Logger
	run, err := appendRun(ctx, cfg, durable, data)
	if err != nil {
		return JournalResult{}, err
	}
	res.DurableSeconds = run.elapsed.Seconds()
	res.DurableEventsPerSec = float64(res.TotalEvents) / res.DurableSeconds
	p50, p99, maxLatency := latencySummary(run.latencies)
	res.AppendP50Ms, res.AppendP99Ms, res.AppendMaxMs = ms(p50), ms(p99), ms(maxLatency)
	res.BytesPerEvent = float64(run.bytes) / float64(res.TotalEvents)

	unsynced := persistence.DefaultOptions(filepath.Join(cfg.Dir, JournalUnsyncedDir))
	unsynced.NoSync = true
	unsynced.Logger = cfg.Logger
	run, err = appendRun(ctx, cfg, unsynced, data)
	if err != nil {
		return JournalResult{}, err
	}
	res.UnsyncedSeconds = run.elapsed.Seconds()
	res.UnsyncedEventsPerSec = float64(res.TotalEvents) / res.UnsyncedSeconds
	return res, nil
}

// journalData builds every stream's events once, so both runs write the
// same bytes and building them is not timed.
func journalData(cfg JournalConfig) ([][]messages.Event, error) {
	at := time.Now().UTC()
	data := make([][]messages.Event, cfg.Streams)
	for i := range data {
		events, err := streamEvents(streamName(i), cfg.Events, at)
		if err != nil {
			return nil, err
		}
		data[i] = events
	}
	return data, nil
}

type appendStats struct {
	elapsed   time.Duration
	latencies []time.Duration // one per Append call, all streams
	bytes     int64           // store size on disk after Close
}

// appendRun opens a fresh store with o, appends data with one goroutine per
// stream, closes the store and measures it.
func appendRun(ctx context.Context, cfg JournalConfig, o persistence.Options, data [][]messages.Event) (appendStats, error) {
	st, created, err := openFresh(ctx, o)
	if err != nil {
		return appendStats{}, err
	}
	if created && !cfg.Keep {
		defer os.RemoveAll(o.Dir)
	}
	elapsed, perStream, err := appendAll(ctx, st, cfg.Batch, data)
	if err = errors.Join(err, closeStore(st, o.Dir)); err != nil {
		return appendStats{}, err
	}
	bytes, err := storeBytes(o.Dir)
	if err != nil {
		return appendStats{}, fmt.Errorf("measure %s: %w", o.Dir, err)
	}
	var all []time.Duration
	for _, l := range perStream {
		all = append(all, l...)
	}
	return appendStats{elapsed: elapsed, latencies: all, bytes: bytes}, nil
}

// appendAll starts one writer per stream, releases them together and waits
// for the last. It returns the wall time and each writer's latencies.
func appendAll(ctx context.Context, j persistence.Journal, batch int, data [][]messages.Event) (time.Duration, [][]time.Duration, error) {
	start := make(chan struct{}) // closed by appendAll to release every writer at once
	latencies := make([][]time.Duration, len(data))
	errs := make([]error, len(data))
	var wg sync.WaitGroup
	for i, events := range data {
		latencies[i] = make([]time.Duration, 0, (len(events)+batch-1)/batch)
		wg.Go(func() {
			<-start
			latencies[i], errs[i] = appendStream(ctx, j, streamName(i), batch, events, latencies[i])
		})
	}
	began := time.Now()
	close(start)
	wg.Wait()
	return time.Since(began), latencies, errors.Join(errs...)
}

// appendStream appends events to stream in calls of batch, adding each
// call's latency to lat.
func appendStream(ctx context.Context, j persistence.Journal, stream string, batch int, events []messages.Event, lat []time.Duration) ([]time.Duration, error) {
	for len(events) > 0 {
		n := min(batch, len(events))
		t := time.Now()
		if _, err := j.Append(ctx, stream, events[:n]); err != nil {
			return lat, fmt.Errorf("append to %s: %w", stream, err)
		}
		lat = append(lat, time.Since(t))
		events = events[n:]
	}
	return lat, nil
}
