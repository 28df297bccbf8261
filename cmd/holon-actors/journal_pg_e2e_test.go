package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/internal/pgtest"
)

// TestRunOnPostgresJournal runs the binary with --journal on a real
// PostgreSQL: a prompt is answered, its events are rows of the database
// (nothing in Badger under the home), and after SIGKILL with an
// acknowledged prompt queued, a restart finds the journal intact and
// answers it.
func TestRunOnPostgresJournal(t *testing.T) {
	t.Parallel()
	url := pgtest.StartT(t).NewDatabase(t)
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [{"text": "Hello from the script."}], "then": "echo"}`)
	args := []string{"--model", "scripted", "--script", script, "--journal", url}
	d := startRun(t, home, args...)

	code, out, errOut := client(t, home, "prompt", "--wait", "hi")
	if code != 0 || strings.TrimSpace(out) != "Hello from the script." {
		t.Fatalf("prompt --wait = %d %q %q", code, out, errOut)
	}
	if n := pgEventRows(t, url, "main"); n == 0 {
		t.Fatalf("no events of main in PostgreSQL after a prompt")
	}
	entries, _ := os.ReadDir(filepath.Join(home, "data"))
	for _, e := range entries {
		if e.Name() != "holon.lock" {
			t.Errorf("%s in the home's data directory: the journal should be in PostgreSQL only", e.Name())
		}
	}
	// The home is still owned by one runtime.
	if code, _, errOut := client(t, home, "run", "--journal", url); code != exitLocked {
		t.Fatalf("second run on the home = %d %q, want exit %d", code, errOut, exitLocked)
	}

	if code, _, errOut := client(t, home, "agents", "pause"); code != 0 {
		t.Fatalf("pause = %d %s", code, errOut)
	}
	code, out, _ = client(t, home, "--json", "prompt", "kept across the crash")
	var acked control.PromptResponse
	if code != 0 || json.Unmarshal([]byte(out), &acked) != nil || acked.MessageID == "" {
		t.Fatalf("prompt = %d %s", code, out)
	}
	before := pgEventRows(t, url, "main")
	d.kill()

	d = startRun(t, home, args...)
	if after := pgEventRows(t, url, "main"); after < before {
		t.Fatalf("events of main: %d before the kill, %d after the restart", before, after)
	}
	code, out, _ = client(t, home, "--json", "agents", "state")
	var state control.AgentStateSnapshot
	if code != 0 || json.Unmarshal([]byte(out), &state) != nil || len(state.Queue) != 1 || state.Queue[0].MessageID != acked.MessageID {
		t.Fatalf("state after restart = %d %s; want the acknowledged prompt queued", code, out)
	}
	if code, _, errOut := client(t, home, "agents", "resume"); code != 0 {
		t.Fatalf("resume = %d %s", code, errOut)
	}
	_, out, _ = client(t, home, "briefs")
	for deadline := time.Now().Add(e2eWait); !strings.Contains(out, "echo: kept across the crash"); {
		if time.Now().After(deadline) {
			t.Fatalf("the queued prompt was not answered after the restart; briefs:\n%s", out)
		}
		time.Sleep(20 * time.Millisecond) // polling another process
		_, out, _ = client(t, home, "briefs")
	}
	if !strings.Contains(out, "Hello from the script.") {
		t.Errorf("briefs after the restart lack the first run's answer:\n%s", out)
	}
	d.stop()
}

// TestRunRefusesJournalThatIsNotAURL: a --journal that is not a postgres://
// URL is a usage error saying what to give, and starts nothing.
func TestRunRefusesJournalThatIsNotAURL(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	code, _, errOut := client(t, home, "run", "--journal", "/var/lib/pg")
	if code != exitUsage || !strings.Contains(errOut, "postgres://") {
		t.Fatalf("run --journal /var/lib/pg = %d %q, want exit %d asking for a postgres:// URL", code, errOut, exitUsage)
	}
	if _, err := os.Stat(filepath.Join(home, "data")); err == nil {
		t.Errorf("a refused run created %s", filepath.Join(home, "data"))
	}
	if code, _, errOut := client(t, home, "once", "--model", "scripted", "--journal", "postgres://x@127.0.0.1/db", "hi"); code != exitUsage || !strings.Contains(errOut, "drop --journal") {
		t.Fatalf("once --journal = %d %q, want exit %d saying to drop it", code, errOut, exitUsage)
	}
}

// pgEventRows counts stream's events in the database at url.
func pgEventRows(t *testing.T, url, stream string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to the journal: %v", err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM holon_events WHERE stream = $1`, stream).Scan(&n); err != nil {
		t.Fatalf("count events: %v", err)
	}
	return n
}

// TestBenchPGNeedsADatabase: bench pg without a postgres:// database is a
// usage error saying what to give.
func TestBenchPGNeedsADatabase(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"bench", "pg"}, {"bench", "pg", "--journal", "/tmp/db"}} {
		code, _, errOut := client(t, t.TempDir(), args...)
		if code != exitUsage || !strings.Contains(errOut, "--journal postgres://") {
			t.Errorf("%v = %d %q, want exit %d asking for --journal postgres://", args, code, errOut, exitUsage)
		}
	}
}
