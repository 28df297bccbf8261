package node_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/internal/pgtest"
	"github.com/holon-actors/holon-actors/node"
)

// TestDueScanWakesPassivatedAgent: on a PostgreSQL journal the node scans
// the due-time index; a passivated agent whose header comes due (as a
// sleeping agent's does when its timer's time comes, here written into
// the index by hand) is activated by the scan.
func TestDueScanWakesPassivatedAgent(t *testing.T) {
	url := pgtest.StartT(t).NewDatabase(t)
	var log logBuffer
	cfg := config(t, filepath.Join(t.TempDir(), "home"), &log)
	cfg.Journal = url
	n, err := node.Start(cfg)
	if err != nil {
		t.Fatalf("Start = %v", err)
	}
	t.Cleanup(func() { _ = n.Shutdown() })
	ctx := context.Background()
	if err := n.Runtime().PassivateIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if active := n.Runtime().Active(); slices.Contains(active, "main") {
		t.Fatalf("main still active after PassivateIdle: %v", active)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// main's current header, written by the store in the background.
	current := func() bool {
		var ok bool
		err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM holon_headers h JOIN holon_streams s USING (stream)
			WHERE h.stream = 'main' AND h.seq = s.highest)`).Scan(&ok)
		return err == nil && ok
	}
	waitFor(t, "main's header at its highest seq", current)
	if _, err := conn.Exec(ctx, `UPDATE holon_headers SET due = now() - interval '1 second' WHERE stream = 'main'`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "main activated by the due scan", func() bool { return slices.Contains(n.Runtime().Active(), "main") })
}

// TestHeaderCarriesNextTimer: an agent with a timer publishes, once it
// settles, a header whose indexed due time is the timer's next fire.
func TestHeaderCarriesNextTimer(t *testing.T) {
	url := pgtest.StartT(t).NewDatabase(t)
	var log logBuffer
	cfg := config(t, filepath.Join(t.TempDir(), "home"), &log)
	cfg.Journal = url
	n, err := node.Start(cfg)
	if err != nil {
		t.Fatalf("Start = %v", err)
	}
	t.Cleanup(func() { _ = n.Shutdown() })
	ctx := context.Background()
	v, err := n.Runtime().CreateTimer(ctx, "main", actors.TimerRequest{Message: "Check the build.", Every: "1h"})
	if err != nil || v.NextDueAt == nil {
		t.Fatalf("CreateTimer = %+v, %v", v, err)
	}
	if err := n.Runtime().PassivateIdle(ctx); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	waitFor(t, "main's header due at its timer's next fire", func() bool {
		var due *time.Time
		err := conn.QueryRow(ctx, `SELECT h.due FROM holon_headers h JOIN holon_streams s USING (stream)
			WHERE h.stream = 'main' AND h.seq = s.highest`).Scan(&due)
		// PostgreSQL keeps microseconds.
		return err == nil && due != nil && due.Sub(*v.NextDueAt).Abs() < time.Microsecond
	})
}

// waitFor polls cond, which another goroutine or process makes true, for
// up to ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond) // polling state others change
	}
}
