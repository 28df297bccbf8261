package pgjournal_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/persistence/pgjournal"
)

// failAfter bounds every wait on a channel; nothing waits for it to pass.
const failAfter = 10 * time.Second

var eventIDs atomic.Uint64

func event(stream string) messages.Event {
	n := eventIDs.Add(1)
	return messages.Event{ID: "ev-" + strconv.FormatUint(n, 10), AgentID: stream, Type: messages.EventMessageAdmitted, Version: 1,
		At: time.Date(2026, 1, 2, 3, 4, 5, int(n), time.UTC), Payload: json.RawMessage(`{"n":` + strconv.FormatUint(n, 10) + `}`)}
}

// sql runs one statement on the database at url.
func sql(t *testing.T, url, stmt string, args ...any) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt, args...); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// wantContiguous reads stream whole and checks seqs 1..n with no event twice.
func wantContiguous(t *testing.T, s persistence.Journal, stream string, n int) []messages.Event {
	t.Helper()
	evs, err := s.Read(context.Background(), stream, 1, ^uint64(0), 0)
	if err != nil {
		t.Fatalf("Read(%s) = %v", stream, err)
	}
	ids := map[string]bool{}
	for i, ev := range evs {
		if ev.Seq != uint64(i+1) {
			t.Fatalf("Read(%s)[%d].Seq = %d, want %d", stream, i, ev.Seq, i+1)
		}
		if ids[ev.ID] {
			t.Fatalf("Read(%s): event %s stored twice", stream, ev.ID)
		}
		ids[ev.ID] = true
	}
	if len(evs) != n {
		t.Fatalf("Read(%s) = %d events, want %d", stream, len(evs), n)
	}
	return evs
}

// TestAppendAfterFencesTwoStores races two stores on one database, as two
// nodes would: each round both append after the same seq, and exactly one
// may win; the loser gets ErrSeqConflict and writes nothing.
func TestAppendAfterFencesTwoStores(t *testing.T) {
	url := pg.NewDatabase(t)
	a, b := openStore(t, url), openStore(t, url)
	ctx := context.Background()
	const rounds = 50
	for round := range rounds {
		var wins atomic.Int32
		var wg sync.WaitGroup
		for _, s := range []*pgjournal.Store{a, b} {
			wg.Go(func() {
				first, err := s.AppendAfter(ctx, "agent", uint64(round), []messages.Event{event("agent")})
				switch {
				case err == nil && first == uint64(round+1):
					wins.Add(1)
				case errors.Is(err, persistence.ErrSeqConflict):
				default:
					t.Errorf("round %d: AppendAfter(%d) = %d, %v; want %d or ErrSeqConflict", round, round, first, err, round+1)
				}
			})
		}
		wg.Wait()
		if n := wins.Load(); n != 1 {
			t.Fatalf("round %d: %d writers won the fence, want exactly 1", round, n)
		}
	}
	wantContiguous(t, a, "agent", rounds)
}

// TestAppendFromTwoStores has two stores append to the same streams with
// no fence: each store's idea of the stream's highest seq goes stale as the
// other writes, and every acknowledged event must still be stored once, at
// the seq its Append returned.
func TestAppendFromTwoStores(t *testing.T) {
	url := pg.NewDatabase(t)
	stores := []*pgjournal.Store{openStore(t, url), openStore(t, url)}
	ctx := context.Background()
	const streams, perWriter = 3, 30
	var mu sync.Mutex
	acked := map[string]map[uint64]string{} // stream -> seq -> event id
	var wg sync.WaitGroup
	for w := range 2 * streams * 2 {
		s, stream := stores[w%2], fmt.Sprintf("shared-%d", w%streams)
		wg.Go(func() {
			for range perWriter {
				ev := event(stream)
				first, err := s.Append(ctx, stream, []messages.Event{ev})
				if err != nil {
					t.Errorf("Append(%s) = %v", stream, err)
					return
				}
				mu.Lock()
				if acked[stream] == nil {
					acked[stream] = map[uint64]string{}
				}
				if prev, ok := acked[stream][first]; ok {
					t.Errorf("%s: seq %d acknowledged twice (%s and %s)", stream, first, prev, ev.ID)
				}
				acked[stream][first] = ev.ID
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for i := range streams {
		stream := fmt.Sprintf("shared-%d", i)
		for _, ev := range wantContiguous(t, stores[1], stream, 4*perWriter) {
			if acked[stream][ev.Seq] != ev.ID {
				t.Errorf("%s seq %d holds %s, acknowledged as %s", stream, ev.Seq, ev.ID, acked[stream][ev.Seq])
			}
		}
	}
}

// TestSubscribeSeesAnotherStoresAppends: a subscription on one store is
// signalled by an append through another store on the same database (two
// nodes), and the event is readable when the signal arrives.
func TestSubscribeSeesAnotherStoresAppends(t *testing.T) {
	url := pg.NewDatabase(t)
	writer, reader := openStore(t, url), openStore(t, url)
	sub := reader.Subscribe("agent")
	defer sub.Close()
	other := reader.Subscribe("elsewhere")
	defer other.Close()
	for i := 1; i <= 3; i++ {
		if _, err := writer.Append(context.Background(), "agent", []messages.Event{event("agent")}); err != nil {
			t.Fatalf("Append = %v", err)
		}
		select {
		case <-sub.C:
		case <-time.After(failAfter):
			t.Fatalf("no signal on the other store's subscription within %v of append %d", failAfter, i)
		}
		wantContiguous(t, reader, "agent", i)
	}
	select {
	case <-other.C:
		t.Fatal("a subscription to another stream was signalled")
	default:
	}
}

// TestGroupCommit has 64 writers on 64 streams append at once: appends
// queued while a commit runs share the next one, so there are far fewer
// transactions than appends.
func TestGroupCommit(t *testing.T) {
	s := openStore(t, pg.NewDatabase(t))
	const writers, each = 64, 20
	var wg sync.WaitGroup
	for w := range writers {
		stream := fmt.Sprintf("agent-%d", w)
		wg.Go(func() {
			for range each {
				if _, err := s.Append(context.Background(), stream, []messages.Event{event(stream)}); err != nil {
					t.Errorf("Append(%s) = %v", stream, err)
					return
				}
			}
		})
	}
	wg.Wait()
	st := s.Stats()
	t.Logf("%d appends in %d commits (%.1f per commit)", st.Appends, st.Commits, float64(st.Appends)/float64(st.Commits))
	if st.Appends != writers*each {
		t.Fatalf("Stats().Appends = %d, want %d", st.Appends, writers*each)
	}
	if st.Commits*2 > st.Appends {
		t.Fatalf("Stats() = %d appends in %d commits; want at least 2 appends per commit on average", st.Appends, st.Commits)
	}
}

// TestCorruptSnapshotIsSkipped damages the newest snapshot's bytes in the
// database: LoadSnapshot falls back to the older one and Health counts the
// skipped one, as the Badger store does.
func TestCorruptSnapshotIsSkipped(t *testing.T) {
	url := pg.NewDatabase(t)
	s := openStore(t, url)
	ctx := context.Background()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for seq := uint64(1); seq <= 2; seq++ {
		if err := s.SaveSnapshot(ctx, persistence.Snapshot{Stream: "agent", Seq: seq, Timestamp: at, Data: []byte("state-" + strconv.FormatUint(seq, 10))}); err != nil {
			t.Fatalf("SaveSnapshot(%d) = %v", seq, err)
		}
	}
	sql(t, url, `UPDATE holon_snapshots SET record = set_byte(record, length(record) - 1, get_byte(record, length(record) - 1) # 1) WHERE seq = 2`)
	got, ok, err := s.LoadSnapshot(ctx, "agent", persistence.LatestSnapshot())
	if err != nil || !ok || got.Seq != 1 || string(got.Data) != "state-1" {
		t.Fatalf("LoadSnapshot = seq %d %q, %v, %v; want seq 1 \"state-1\", true, nil", got.Seq, got.Data, ok, err)
	}
	if n := s.Health().SkippedSnapshots; n != 1 {
		t.Fatalf("Health().SkippedSnapshots = %d, want 1", n)
	}
}

// TestCorruptEventIsRefused damages an event's bytes: reading it fails
// with ErrCorrupt after the good events before it, never a wrong event.
func TestCorruptEventIsRefused(t *testing.T) {
	url := pg.NewDatabase(t)
	s := openStore(t, url)
	ctx := context.Background()
	for range 3 {
		if _, err := s.Append(ctx, "agent", []messages.Event{event("agent")}); err != nil {
			t.Fatalf("Append = %v", err)
		}
	}
	sql(t, url, `UPDATE holon_events SET record = set_byte(record, 20, get_byte(record, 20) # 255) WHERE seq = 2`)
	evs, err := s.Read(ctx, "agent", 1, 3, 0)
	if !errors.Is(err, persistence.ErrCorrupt) || len(evs) != 1 {
		t.Fatalf("Read over a damaged seq 2 = %d events, %v; want 1 event and ErrCorrupt", len(evs), err)
	}
}

// TestOpenRefusesNewerSchema: a database migrated by a newer build is
// refused with a clear error, and left exactly as it was.
func TestOpenRefusesNewerSchema(t *testing.T) {
	url := pg.NewDatabase(t)
	s := openStore(t, url)
	if _, err := s.Append(context.Background(), "agent", []messages.Event{event("agent")}); err != nil {
		t.Fatalf("Append = %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	newer := pgjournal.SchemaVersion + 1
	sql(t, url, `UPDATE holon_schema_version SET version = $1`, newer)
	_, err := pgjournal.Open(context.Background(), pgjournal.DefaultConfig(url))
	if !errors.Is(err, pgjournal.ErrSchemaTooNew) || !strings.Contains(err.Error(), "run a newer holon-actors") {
		t.Fatalf("Open(schema version %d) = %v; want ErrSchemaTooNew saying to run a newer holon-actors", newer, err)
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(context.Background())
	var version, events int
	if err := conn.QueryRow(context.Background(), `SELECT (SELECT version FROM holon_schema_version), (SELECT count(*) FROM holon_events)`).Scan(&version, &events); err != nil {
		t.Fatalf("read back: %v", err)
	}
	if version != newer || events != 1 {
		t.Fatalf("after the refused Open: schema version %d, %d events; want %d and 1 (nothing changed)", version, events, newer)
	}
}

// TestSchemaMigratesOnceAcrossOpens: the first Open creates the tables at
// SchemaVersion; opening again, even by several stores at once, keeps the
// data and the version.
func TestSchemaMigratesOnceAcrossOpens(t *testing.T) {
	url := pg.NewDatabase(t)
	var wg sync.WaitGroup
	stores := make([]*pgjournal.Store, 4)
	for i := range stores {
		wg.Go(func() {
			s, err := pgjournal.Open(context.Background(), pgjournal.DefaultConfig(url))
			if err != nil {
				t.Errorf("Open #%d = %v", i, err)
				return
			}
			stores[i] = s
		})
	}
	wg.Wait()
	for _, s := range stores {
		if s != nil {
			_ = s.Close()
		}
	}
	if t.Failed() {
		return
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(context.Background())
	var versions []int
	rows, _ := conn.Query(context.Background(), `SELECT version FROM holon_schema_version`)
	versions, err = pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil || !slices.Equal(versions, []int{pgjournal.SchemaVersion}) {
		t.Fatalf("schema versions = %v, %v; want [%d]", versions, err, pgjournal.SchemaVersion)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*pgjournal.Config)
		want string
	}{
		{"a directory, not a URL", func(c *pgjournal.Config) { c.URL = "/var/lib/holon" }, "must start with postgres://"},
		{"the password is not echoed", func(c *pgjournal.Config) { c.URL = "mysql://u:secret@h/db" }, "u:***@h/db"},
		{"no committer", func(c *pgjournal.Config) { c.Committers = 0 }, "Committers must be at least 1"},
		{"no room for reads", func(c *pgjournal.Config) { c.MaxConns = c.Committers }, "must exceed Committers"},
		{"a negative linger", func(c *pgjournal.Config) { c.Linger = -time.Millisecond }, "Linger -1ms is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := pgjournal.DefaultConfig("postgres://u@127.0.0.1/db")
			tt.edit(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "secret") {
				t.Fatalf("Validate() = %v, want an error containing %q and no password", err, tt.want)
			}
		})
	}
}

// TestRedactScrubsBeforeTheDatabase: with Config.Redact set, a secret in a
// payload never reaches the database's rows.
func TestRedactScrubsBeforeTheDatabase(t *testing.T) {
	url := pg.NewDatabase(t)
	cfg := pgjournal.DefaultConfig(url)
	cfg.Redact = func(b []byte) []byte { return []byte(strings.ReplaceAll(string(b), "hunter2", "[redacted]")) }
	s, err := pgjournal.Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	defer s.Close()
	ev := event("agent")
	ev.Payload = json.RawMessage(`{"text":"the password is hunter2"}`)
	if _, err := s.Append(context.Background(), "agent", []messages.Event{ev}); err != nil {
		t.Fatalf("Append = %v", err)
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(context.Background())
	var leaked bool
	if err := conn.QueryRow(context.Background(), `SELECT bool_or(position('hunter2'::bytea in record) > 0) FROM holon_events`).Scan(&leaked); err != nil || leaked {
		t.Fatalf("secret in holon_events: %v, %v; want false, nil", leaked, err)
	}
	evs := wantContiguous(t, s, "agent", 1)
	if got := string(evs[0].Payload); got != `{"text":"the password is [redacted]"}` {
		t.Fatalf("Read payload = %s, want the redacted one", got)
	}
}

// TestListenerReconnects kills the listening connections on the server:
// the store reconnects, signals its subscriptions (appends may have landed
// meanwhile), and goes on seeing the other store's appends.
func TestListenerReconnects(t *testing.T) {
	url := pg.NewDatabase(t)
	reader, writer := openStore(t, url), openStore(t, url)
	sub := reader.Subscribe("agent")
	defer sub.Close()
	sql(t, url, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`)
	select {
	case <-sub.C:
	case <-time.After(failAfter):
		t.Fatalf("no signal within %v of the listener's connection being killed: it did not reconnect", failAfter)
	}
	if _, err := writer.Append(context.Background(), "agent", []messages.Event{event("agent")}); err != nil {
		t.Fatalf("Append = %v", err)
	}
	select {
	case <-sub.C:
	case <-time.After(failAfter):
		t.Fatalf("no signal within %v of an append after the reconnect", failAfter)
	}
	wantContiguous(t, reader, "agent", 1)
}
