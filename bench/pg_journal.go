package bench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/persistence/pgjournal"
)

// PGJournalConfig sets the workload of PGJournal.
type PGJournalConfig struct {
	// URL is the PostgreSQL database written to; it must not hold the
	// bench's streams yet (an empty database: createdb holon_bench).
	URL string
	// Streams is the number of concurrent writers, one stream (agent) each.
	Streams int
	// Events is the number of events appended to each stream.
	Events int
	// Batch is the number of events per Append call.
	Batch int
	// Committers is the store's committer goroutines (pgjournal.Config).
	Committers int
}

// DefaultPGJournalConfig returns the default workload: 100 streams of 200
// single-event appends, the store's default committers.
func DefaultPGJournalConfig(url string) PGJournalConfig {
	return PGJournalConfig{URL: url, Streams: 100, Events: 200, Batch: 1, Committers: pgjournal.DefaultConfig(url).Committers}
}

// Validate reports the first setting that cannot run.
func (c PGJournalConfig) Validate() error {
	switch {
	case !pgjournal.IsURL(c.URL):
		return errors.New("pg bench: give the database as --journal postgres://USER@HOST:PORT/DB (an empty one: the bench writes streams into it)")
	case c.Streams < 1:
		return fmt.Errorf("pg bench: streams is %d, want at least 1", c.Streams)
	case c.Events < 1:
		return fmt.Errorf("pg bench: events is %d, want at least 1", c.Events)
	case c.Batch < 1:
		return fmt.Errorf("pg bench: batch is %d, want at least 1", c.Batch)
	case c.Committers < 1:
		return fmt.Errorf("pg bench: committers is %d, want at least 1", c.Committers)
	}
	return nil
}

// PGJournalResult is what PGJournal measured: durable appends (COMMIT
// returned, so PostgreSQL synced them) through the PostgreSQL journal.
type PGJournalResult struct {
	Streams     int `json:"streams"`
	Events      int `json:"events"` // per stream
	Batch       int `json:"batch"`
	Committers  int `json:"committers"`
	TotalEvents int `json:"total_events"`

	Seconds               float64 `json:"seconds"`
	PGDurableEventsPerSec float64 `json:"pg_durable_events_per_sec"`
	// Append latencies, per Append call, in milliseconds.
	AppendP50Ms float64 `json:"append_p50_ms"`
	AppendP99Ms float64 `json:"append_p99_ms"`
	AppendMaxMs float64 `json:"append_max_ms"`
	// Commits is the number of transactions that carried the appends;
	// AppendsPerCommit is how well group commit packed them.
	Commits          uint64  `json:"commits"`
	AppendsPerCommit float64 `json:"appends_per_commit"`
}

// PGJournal appends cfg.Streams streams of cfg.Events events through a
// pgjournal.Store on cfg.URL, one goroutine per stream, released together,
// and times each Append. It refuses a database that already holds the
// bench's streams, so every run measures the same work.
func PGJournal(ctx context.Context, cfg PGJournalConfig) (PGJournalResult, error) {
	if err := cfg.Validate(); err != nil {
		return PGJournalResult{}, err
	}
	data, err := journalData(JournalConfig{Streams: cfg.Streams, Events: cfg.Events})
	if err != nil {
		return PGJournalResult{}, err
	}
	sc := pgjournal.DefaultConfig(cfg.URL)
	sc.Committers, sc.MaxConns = cfg.Committers, max(sc.MaxConns, cfg.Committers+2)
	sc.Log = zerolog.Nop()
	st, err := pgjournal.Open(ctx, sc)
	if err != nil {
		return PGJournalResult{}, err
	}
	defer st.Close()
	if high, err := st.HighestSeq(ctx, streamName(0)); err != nil || high > 0 {
		return PGJournalResult{}, errors.Join(err, fmt.Errorf("pg bench: the database already holds %s (seq %d) from an earlier run: give an empty database", streamName(0), high))
	}
	elapsed, perStream, err := appendAll(ctx, st, cfg.Batch, data)
	if err != nil {
		return PGJournalResult{}, err
	}
	var all []time.Duration
	for _, l := range perStream {
		all = append(all, l...)
	}
	res := PGJournalResult{Streams: cfg.Streams, Events: cfg.Events, Batch: cfg.Batch, Committers: cfg.Committers,
		TotalEvents: cfg.Streams * cfg.Events, Seconds: elapsed.Seconds()}
	res.PGDurableEventsPerSec = float64(res.TotalEvents) / res.Seconds
	p50, p99, maxLatency := latencySummary(all)
	res.AppendP50Ms, res.AppendP99Ms, res.AppendMaxMs = ms(p50), ms(p99), ms(maxLatency)
	stats := st.Stats()
	res.Commits = stats.Commits
	if stats.Commits > 0 {
		res.AppendsPerCommit = float64(stats.Appends) / float64(stats.Commits)
	}
	return res, nil
}
