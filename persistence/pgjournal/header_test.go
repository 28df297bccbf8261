package pgjournal_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// TestHeaderRoundTrip: a published header is read back at once, replaced
// by a newer one but never by an older one, kept across a reopen with its
// due time in the indexed column; a stream without one has none.
func TestHeaderRoundTrip(t *testing.T) {
	ctx := context.Background()
	url := pg.NewDatabase(t)
	s := openStore(t, url)
	var _ persistence.HeaderStore = s
	due := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	if _, err := s.Append(ctx, "a", []messages.Event{event("a"), event("a"), event("a")}); err != nil {
		t.Fatal(err)
	}
	for _, h := range []persistence.Header{{Seq: 2, Data: []byte("old")}, {Seq: 3, Data: []byte("new"), Due: due}} {
		if err := s.PublishHeader("a", h); err != nil {
			t.Fatalf("PublishHeader(%d) = %v", h.Seq, err)
		}
	}
	if h, ok, err := s.LoadHeader(ctx, "a"); err != nil || !ok || h.Seq != 3 || string(h.Data) != "new" {
		t.Fatalf("LoadHeader(a) before any write = %d %q, %t, %v; want 3 new", h.Seq, h.Data, ok, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, url)
	h, ok, err := s.LoadHeader(ctx, "a")
	if err != nil || !ok || h.Seq != 3 || string(h.Data) != "new" || !h.Due.Equal(due) {
		t.Fatalf("LoadHeader(a) after reopen = %d %q due %v, %t, %v; want 3 new due %v", h.Seq, h.Data, h.Due, ok, err, due)
	}
	// An older header published later (a slow writer) does not win.
	if err := s.PublishHeader("a", persistence.Header{Seq: 1, Data: []byte("stale")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var seq int64
	var col *time.Time
	if err := conn.QueryRow(ctx, `SELECT seq, due FROM holon_headers WHERE stream = 'a'`).Scan(&seq, &col); err != nil || seq != 3 || col == nil || !col.Equal(due) {
		t.Fatalf("holon_headers row of a = %d, due %v, %v; want 3, due %v", seq, col, err, due)
	}
	s = openStore(t, url)
	if _, ok, err := s.LoadHeader(ctx, "b"); ok || err != nil {
		t.Fatalf("LoadHeader(b) = %t, %v; want none", ok, err)
	}
	if err := s.PublishHeader("bad stream\x00", persistence.Header{Seq: 1}); err == nil {
		t.Fatal("PublishHeader(an invalid stream name) = nil, want an error")
	}
}
