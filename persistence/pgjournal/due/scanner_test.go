package due_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/internal/pgtest"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/persistence/pgjournal"
	"github.com/holon-actors/holon-actors/persistence/pgjournal/due"
)

var pg *pgtest.Server

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &pg)) }

// t0 is the tests' now.
var t0 = time.Date(2026, 5, 6, 7, 0, 0, 0, time.UTC)

const lease = 30 * time.Second

// setup makes a database with streams at seq 1 whose headers (seq 1) are
// due at dues[stream] (zero: none), written and closed: the agents are
// active nowhere.
func setup(t *testing.T, dues map[string]time.Time) string {
	t.Helper()
	url := pg.NewDatabase(t)
	s := openStore(t, url)
	for stream, at := range dues {
		appendOne(t, s, stream)
		if err := s.PublishHeader(stream, persistence.Header{Seq: 1, Data: []byte("{}"), Due: at}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil { // writes the headers
		t.Fatal(err)
	}
	return url
}

func openStore(t *testing.T, url string) *pgjournal.Store {
	t.Helper()
	s, err := pgjournal.Open(context.Background(), pgjournal.DefaultConfig(url))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func appendOne(t *testing.T, s *pgjournal.Store, stream string) uint64 {
	t.Helper()
	ev := messages.Event{ID: stream + "-" + strconv.FormatInt(time.Now().UnixNano(), 10), AgentID: stream,
		Type: messages.EventMessageAdmitted, Version: 1, At: t0, Payload: json.RawMessage(`{}`)}
	first, err := s.Append(context.Background(), stream, []messages.Event{ev})
	if err != nil {
		t.Fatal(err)
	}
	return first
}

func openPool(t *testing.T, url string) *pgxpool.Pool {
	t.Helper()
	p, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// wakes counts the wakes of each agent, across scanners.
type wakes struct {
	mu sync.Mutex
	n  map[string]int
	by map[string][]string
}

func newWakes() *wakes { return &wakes{n: map[string]int{}, by: map[string][]string{}} }

func (w *wakes) wake(node string) due.WakeFunc {
	return func(_ context.Context, id string) error {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.n[id]++
		w.by[id] = append(w.by[id], node)
		return nil
	}
}

func (w *wakes) counts() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return maps(w.n)
}

func maps(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func newScanner(t *testing.T, pool *pgxpool.Pool, node string, clock clockwork.Clock, wake due.WakeFunc) *due.Scanner {
	t.Helper()
	s, err := due.New(pool, due.Config{Node: node, Wake: wake, Lease: lease, Batch: 7, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTwoScannersWakeEachDueAgentOnce: two nodes' scanners, each on its
// own connections, scan the same database at once, again and again; each
// agent due by now is woken exactly once, the others not at all.
func TestTwoScannersWakeEachDueAgentOnce(t *testing.T) {
	dues := map[string]time.Time{}
	var wantDue []string
	for i := range 60 {
		id := fmt.Sprintf("agent-%02d", i)
		switch i % 3 {
		case 0:
			dues[id] = t0.Add(-time.Duration(i) * time.Minute)
			wantDue = append(wantDue, id)
		case 1:
			dues[id] = t0
			wantDue = append(wantDue, id)
		default:
			dues[id] = t0.Add(time.Hour) // not yet
		}
	}
	dues["no-timer"] = time.Time{}
	url := setup(t, dues)
	clock := clockwork.NewFakeClockAt(t0)
	w := newWakes()
	scanners := []*due.Scanner{
		newScanner(t, openPool(t, url), "node-a", clock, w.wake("node-a")),
		newScanner(t, openPool(t, url), "node-b", clock, w.wake("node-b")),
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*10)
	for _, s := range scanners {
		wg.Go(func() {
			for range 10 { // more passes than batches: every pass after the due ones are taken finds nothing
				if _, err := s.Scan(context.Background()); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("Scan = %v", err)
	}
	got := w.counts()
	for _, id := range wantDue {
		if got[id] != 1 {
			t.Errorf("%s (due) woken %d times by %v, want once", id, got[id], w.by[id])
		}
		delete(got, id)
	}
	if len(got) != 0 {
		t.Errorf("woken though not due: %v", got)
	}
	nodes := map[string]bool{}
	for _, by := range w.by {
		nodes[by[0]] = true
	}
	if len(nodes) != 2 {
		t.Logf("only %v woke agents this run (the other found them claimed)", nodes)
	}
	// Within the lease nothing is woken again, though still due.
	clock.Advance(lease - time.Second)
	for _, s := range scanners {
		if woken, err := s.Scan(context.Background()); err != nil || len(woken) != 0 {
			t.Fatalf("Scan within the lease = %v, %v; want nothing", woken, err)
		}
	}
}

// TestClaimOfADeadNodeIsTakenOver: node a claims a due agent and dies
// before the agent acts (its header does not move); node b does not wake
// it while a's claim lasts, and wakes it once the claim expired.
func TestClaimOfADeadNodeIsTakenOver(t *testing.T) {
	url := setup(t, map[string]time.Time{"sleeper": t0.Add(-time.Second)})
	clock := clockwork.NewFakeClockAt(t0)
	poolA := openPool(t, url)
	a := newScanner(t, poolA, "node-a", clock, func(context.Context, string) error { return nil })
	claimed, err := a.Claim(context.Background())
	if err != nil || !slices.Equal(claimed, []string{"sleeper"}) {
		t.Fatalf("a.Claim = %v, %v; want [sleeper]", claimed, err)
	}
	poolA.Close() // node a dies holding the claim
	w := newWakes()
	b := newScanner(t, openPool(t, url), "node-b", clock, w.wake("node-b"))
	if woken, err := b.Scan(context.Background()); err != nil || len(woken) != 0 {
		t.Fatalf("b.Scan while a's claim lasts = %v, %v; want nothing", woken, err)
	}
	clock.Advance(lease)
	if woken, err := b.Scan(context.Background()); err != nil || !slices.Equal(woken, []string{"sleeper"}) {
		t.Fatalf("b.Scan once a's claim expired = %v, %v; want [sleeper]", woken, err)
	}
}

// TestWakeFollowsTheHeader: an agent that acted (its journal and header
// moved on) and is due again is claimed again without waiting for the
// lease; one whose journal is past its header (active, the header not yet
// republished) is not trusted; a failed wake releases the agent at once.
func TestWakeFollowsTheHeader(t *testing.T) {
	url := setup(t, map[string]time.Time{"a": t0.Add(-time.Second), "b": t0.Add(-time.Second)})
	clock := clockwork.NewFakeClockAt(t0)
	w := newWakes()
	s := newScanner(t, openPool(t, url), "node-a", clock, w.wake("node-a"))
	if woken, err := s.Scan(context.Background()); err != nil || len(woken) != 2 {
		t.Fatalf("Scan = %v, %v; want a and b", woken, err)
	}
	store := openStore(t, url)
	seq := appendOne(t, store, "a") // a fired its timer and set the next, due now
	if err := store.PublishHeader("a", persistence.Header{Seq: seq, Data: []byte("{}"), Due: t0}); err != nil {
		t.Fatal(err)
	}
	appendOne(t, store, "b") // b is acting, its header is behind
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	woken, err := s.Scan(context.Background())
	if err != nil || !slices.Equal(woken, []string{"a"}) {
		t.Fatalf("Scan after a moved on = %v, %v; want [a]", woken, err)
	}
	clock.Advance(lease)
	if woken, err := s.Scan(context.Background()); err != nil || !slices.Equal(woken, []string{"a"}) {
		t.Fatalf("Scan after the lease = %v, %v; want [a] (b's header is behind its journal)", woken, err)
	}

	clock.Advance(lease)
	failed := 0
	flaky := newScanner(t, openPool(t, url), "node-c", clock, func(context.Context, string) error {
		failed++
		return errors.New("node is shutting down")
	})
	if woken, err := flaky.Scan(context.Background()); err != nil || len(woken) != 0 || failed != 1 {
		t.Fatalf("flaky.Scan = %v, %v after %d wakes; want nothing woken after 1 failed wake", woken, err, failed)
	}
	if woken, err := s.Scan(context.Background()); err != nil || !slices.Equal(woken, []string{"a"}) {
		t.Fatalf("Scan right after a failed wake = %v, %v; want [a] (released)", woken, err)
	}
}

// TestRunScansOnItsClock: Run wakes an agent once its due time comes on
// the scanner's clock, and ends with its context.
func TestRunScansOnItsClock(t *testing.T) {
	url := setup(t, map[string]time.Time{"later": t0.Add(5 * time.Second)})
	clock := clockwork.NewFakeClockAt(t0)
	woke := make(chan string, 1)
	s, err := due.New(openPool(t, url), due.Config{Node: "n", Clock: clock, Interval: time.Second,
		Wake: func(_ context.Context, id string) error { woke <- id; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	for range 5 {
		if err := clock.BlockUntilContext(ctx, 1); err != nil {
			t.Fatal(err)
		}
		select {
		case id := <-woke:
			t.Fatalf("%s woken at %v, before it was due", id, clock.Now())
		default:
		}
		clock.Advance(time.Second)
	}
	select {
	case id := <-woke:
		if id != "later" {
			t.Fatalf("woken %s, want later", id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("later not woken once due")
	}
	cancel()
	<-done
}

// TestGoneAgentIsDropped: an agent the wake reports gone (deleted) is not
// found again, even after the lease.
func TestGoneAgentIsDropped(t *testing.T) {
	url := setup(t, map[string]time.Time{"deleted": t0.Add(-time.Second)})
	clock := clockwork.NewFakeClockAt(t0)
	wakes := 0
	s := newScanner(t, openPool(t, url), "n", clock, func(_ context.Context, id string) error {
		wakes++
		return fmt.Errorf("agent %s was deleted: %w", id, due.ErrNoAgent)
	})
	for range 2 {
		if woken, err := s.Scan(context.Background()); err != nil || len(woken) != 0 {
			t.Fatalf("Scan = %v, %v; want nothing woken", woken, err)
		}
		clock.Advance(2 * lease)
	}
	if wakes != 1 {
		t.Fatalf("a gone agent was tried %d times, want once", wakes)
	}
}

func TestConfigRefused(t *testing.T) {
	pool := openPool(t, pg.NewDatabase(t))
	wake := func(context.Context, string) error { return nil }
	for _, c := range []due.Config{{Wake: wake}, {Node: "n"}, {Node: "n", Wake: wake, Lease: -time.Second}} {
		if _, err := due.New(pool, c); !errors.Is(err, due.ErrConfig) {
			t.Errorf("New(%+v) = %v, want ErrConfig", c, err)
		}
	}
}
