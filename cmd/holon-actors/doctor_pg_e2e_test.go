package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/holon-actors/holon-actors/internal/pgtest"
	"github.com/holon-actors/holon-actors/persistence"
)

// TestDoctorOnPostgresJournal: doctor --journal checks the journal a run
// kept in PostgreSQL, while that run goes on: healthy after a prompt; a
// damaged record and a deleted event are reported by seq, with exit 1 and
// nothing changed; a database without a journal and a non-postgres URL are
// usage errors.
func TestDoctorOnPostgresJournal(t *testing.T) {
	t.Parallel()
	pg := pgtest.StartT(t)
	url := pg.NewDatabase(t)
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [{"text": "Hello from the script."}], "then": "echo"}`)
	startRun(t, home, "--model", "scripted", "--script", script, "--journal", url)
	if code, out, errOut := client(t, home, "prompt", "--wait", "hi"); code != 0 {
		t.Fatalf("prompt --wait = %d %q %q", code, out, errOut)
	}

	doctor := func() (int, persistence.Report, string) {
		t.Helper()
		code, out, errOut := client(t, home, "--json", "doctor", "--journal", url)
		var r persistence.Report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("doctor --json = %d %q %q: %v", code, out, errOut, err)
		}
		return code, r, errOut
	}
	code, r, errOut := doctor()
	main := func(r persistence.Report) persistence.StreamReport {
		for _, s := range r.Streams {
			if s.Stream == "main" {
				return s
			}
		}
		t.Fatalf("doctor found no stream main: %+v", r)
		return persistence.StreamReport{}
	}
	healthy := main(r)
	if code != 0 || !r.Healthy || healthy.Status != persistence.StreamOK || healthy.Events == 0 || healthy.Highest != uint64(healthy.Events) {
		t.Fatalf("doctor on a healthy journal = %d %+v %q", code, r, errOut)
	}

	sql(t, url, `UPDATE holon_events SET record = overlay(record placing '\xff'::bytea from length(record)) WHERE stream = 'main' AND seq = 2`)
	sql(t, url, `DELETE FROM holon_events WHERE stream = 'main' AND seq = 3`)
	code, r, errOut = doctor()
	damaged := main(r)
	if code != 1 || r.Healthy || damaged.Status != persistence.StreamDamaged || len(damaged.Corrupt) != 1 || damaged.Corrupt[0] != 2 ||
		len(damaged.Gaps) != 1 || damaged.Gaps[0].From != 3 || damaged.Gaps[0].To != 3 {
		t.Fatalf("doctor on a damaged journal = %d %+v %q; want exit 1, seq 2 corrupt, seq 3 missing", code, damaged, errOut)
	}
	if code, out, _ := client(t, home, "doctor", "--journal", url); code != 1 || !strings.Contains(out, "damaged") || !strings.Contains(out, "restore") {
		t.Fatalf("doctor (rows) on a damaged journal = %d %q", code, out)
	}
	if n := pgEventRows(t, url, "main"); n != healthy.Events-1 {
		t.Fatalf("events of main after doctor = %d, want %d: doctor changed the journal", n, healthy.Events-1)
	}

	if code, _, errOut := client(t, home, "doctor", "--journal", pg.NewDatabase(t)); code != exitUsage || !strings.Contains(errOut, "no journal") {
		t.Fatalf("doctor on an empty database = %d %q, want a usage error naming it", code, errOut)
	}
	if code, _, errOut := client(t, home, "doctor", "--journal", "mysql://x"); code != exitUsage || !strings.Contains(errOut, "postgres://") {
		t.Fatalf("doctor --journal mysql://x = %d %q, want a usage error", code, errOut)
	}
}

// sql runs one statement on the database at url.
func sql(t *testing.T, url, stmt string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}
