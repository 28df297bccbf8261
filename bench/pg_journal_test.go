package bench_test

import (
	"context"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
	"github.com/holon-actors/holon-actors/internal/pgtest"
)

// TestPGJournal runs a small PostgreSQL journal workload on a real server:
// every event is counted, latencies are ordered, group commit packs more
// than one append per commit, and a second run on the same database is
// refused rather than measuring different work.
func TestPGJournal(t *testing.T) {
	url := pgtest.StartT(t).NewDatabase(t)
	cfg := bench.DefaultPGJournalConfig(url)
	cfg.Streams, cfg.Events = 32, 10
	r, err := bench.PGJournal(context.Background(), cfg)
	if err != nil {
		t.Fatalf("PGJournal = %v", err)
	}
	t.Logf("%+v", r)
	if r.TotalEvents != 320 || r.PGDurableEventsPerSec <= 0 {
		t.Errorf("PGJournal = %d events at %.0f/s, want 320 at a positive rate", r.TotalEvents, r.PGDurableEventsPerSec)
	}
	if r.AppendP50Ms <= 0 || r.AppendP50Ms > r.AppendP99Ms || r.AppendP99Ms > r.AppendMaxMs {
		t.Errorf("latencies p50 %v, p99 %v, max %v: want 0 < p50 <= p99 <= max", r.AppendP50Ms, r.AppendP99Ms, r.AppendMaxMs)
	}
	if r.Commits == 0 || r.AppendsPerCommit <= 1 {
		t.Errorf("%d commits, %.2f appends per commit; want group commit packing more than 1", r.Commits, r.AppendsPerCommit)
	}
	if _, err := bench.PGJournal(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "empty database") {
		t.Errorf("second PGJournal on the same database = %v, want a refusal asking for an empty database", err)
	}
}

func TestPGJournalConfigValidate(t *testing.T) {
	for _, url := range []string{"", "/tmp/db", "mysql://x"} {
		if err := bench.DefaultPGJournalConfig(url).Validate(); err == nil || !strings.Contains(err.Error(), "--journal postgres://") {
			t.Errorf("Validate(URL %q) = %v, want an error asking for --journal postgres://", url, err)
		}
	}
}
