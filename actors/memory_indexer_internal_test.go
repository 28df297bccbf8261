package actors

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/memory"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// readLog is a journal that records the ranges its Read calls asked for.
type readLog struct {
	persistence.Journal
	mu    sync.Mutex
	reads [][2]uint64
}

func (j *readLog) Read(ctx context.Context, stream string, from, to uint64, limit int) ([]messages.Event, error) {
	j.mu.Lock()
	j.reads = append(j.reads, [2]uint64{from, to})
	j.mu.Unlock()
	return j.Journal.Read(ctx, stream, from, to, limit)
}

// briefBatch journals a result brief of text for agent id and returns its
// payloads and seq, as an agent's persist hands them to the service.
func briefBatch(t *testing.T, st persistence.Store, id, text string) ([]messages.Payload, uint64) {
	t.Helper()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	p := messages.BriefRecorded{Brief: messages.Brief{ID: messages.NewID("brief"), AgentID: id,
		Kind: messages.BriefResult, Text: text, CreatedAt: now}}
	ev, err := messages.NewEvent(id, now, p)
	if err != nil {
		t.Fatal(err)
	}
	first, err := st.Append(context.Background(), id, []messages.Event{ev})
	if err != nil {
		t.Fatal(err)
	}
	return []messages.Payload{p}, first
}

func agentDir(t *testing.T, home, id string) string {
	t.Helper()
	dir, err := persistence.AgentHome(home, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A new agent's first index is built without reading the journal its
// pending records cover: only the seqs before them are read.
func TestMemoryFirstIndexReadsOnlyBeforePending(t *testing.T) {
	home, st := t.TempDir(), persistence.NewMemStore()
	agentDir(t, home, "a1")
	for i := range 5 { // earlier events of the agent, with one brief among them
		if _, err := st.Append(context.Background(), "a1", []messages.Event{mustEvent(t, "a1",
			messages.AgentStateChanged{To: messages.StatusAwakeIdle})}); err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			briefBatch(t, st, "a1", "an early brief about the harbour")
		}
	}
	log := &readLog{Journal: st}
	s := newMemoryService(home, log)
	t.Cleanup(s.stop)
	batch, seq := briefBatch(t, st, "a1", "the lighthouse keeper's log")
	s.write("a1", batch, time.Now(), seq)
	if err := s.flushAgent(context.Background(), "a1"); err != nil {
		t.Fatal(err)
	}
	for _, r := range log.reads {
		if r[1] >= seq {
			t.Errorf("the first index read the journal %d–%d, want only before the pending seq %d", r[0], r[1], seq)
		}
	}
	hits, err := s.search(context.Background(), "a1", memory.Query{Text: "harbour lighthouse", AllWorkspaces: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 {
		t.Errorf("hits = %+v, want the early brief from the journal and the pending one", hits)
	}
}

func mustEvent(t *testing.T, id string, p messages.Payload) messages.Event {
	t.Helper()
	ev, err := messages.NewEvent(id, time.Now(), p)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// Records handed over but not indexed when the process ended (no stop)
// leave a pending marker: the next process rebuilds that agent's index
// from the journal before its first use, though the index file is sound.
func TestMemoryPendingMarkerRebuildsAfterCrash(t *testing.T) {
	home, st := t.TempDir(), persistence.NewMemStore()
	dir := agentDir(t, home, "a1")
	s1 := newMemoryService(home, st)
	if _, release, err := s1.index(context.Background(), "a1"); err != nil { // a sound, empty index file
		t.Fatal(err)
	} else {
		release()
	}
	s1.mu.Lock()
	s1.closing = true // the indexer never starts: the process dies with the records pending
	s1.mu.Unlock()
	batch, seq := briefBatch(t, st, "a1", "the quartermaster counts seventeen barrels")
	s1.write("a1", batch, time.Now(), seq)
	if _, err := os.Stat(filepath.Join(dir, ".holon", "indexes", pendingMarker)); err != nil {
		t.Fatalf("no pending marker while records wait: %v", err)
	}
	s1.ixMu.Lock()
	for _, o := range s1.indexes {
		_ = o.ix.Close()
	}
	s1.ixMu.Unlock()

	s2 := newMemoryService(home, st)
	t.Cleanup(s2.stop)
	hits, err := s2.search(context.Background(), "a1", memory.Query{Text: "quartermaster barrels", AllWorkspaces: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 {
		t.Fatalf("hits after the crash = %+v, want the brief from the journal", hits)
	}
	if _, err := os.Stat(filepath.Join(dir, ".holon", "indexes", pendingMarker)); !os.IsNotExist(err) {
		t.Errorf("pending marker still there after the rebuild: %v", err)
	}
}

// Stop indexes what is pending before it closes: the next process finds
// it without a rebuild (no marker is left).
func TestMemoryStopIndexesPending(t *testing.T) {
	home, st := t.TempDir(), persistence.NewMemStore()
	dir := agentDir(t, home, "a1")
	s := newMemoryService(home, st)
	batch, seq := briefBatch(t, st, "a1", "the cartographer finished the northern chart")
	s.write("a1", batch, time.Now(), seq)
	s.stop()
	if _, err := os.Stat(filepath.Join(dir, ".holon", "indexes", pendingMarker)); !os.IsNotExist(err) {
		t.Fatalf("pending marker left by a clean stop: %v", err)
	}
	ix, err := memory.Open(filepath.Join(dir, ".holon", "indexes"), memory.Options{AgentID: "a1"})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	hits, err := ix.Search(context.Background(), memory.Query{Text: "cartographer", AllWorkspaces: true})
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits in the index after stop = %+v, %v; want the brief", hits, err)
	}
}

// The indexer's policy: everything once the runtime is quiet; before
// that an agent with a batch's worth or an old record, and past the soft
// bound the agents with the most records until half are left.
func TestMemoryDue(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	pend := func(n int, age time.Duration) *memoryPending {
		return &memoryPending{docs: make([]memory.Doc, n), since: now.Add(-age)}
	}
	for _, tc := range []struct {
		name      string
		pending   map[string]*memoryPending
		quiet     time.Duration // since the last write
		want      []string
		wantWaitL time.Duration // the wait, when nothing is due
	}{
		{"busy, few records", map[string]*memoryPending{"a": pend(3, time.Second), "b": pend(5, 2*time.Second)},
			100 * time.Millisecond, nil, 900 * time.Millisecond},
		{"quiet", map[string]*memoryPending{"a": pend(3, time.Second), "b": pend(5, 2*time.Second)},
			memoryQuiet, []string{"a", "b"}, 0},
		{"a batch's worth", map[string]*memoryPending{"a": pend(memoryBatch, time.Second), "b": pend(5, time.Second)},
			0, []string{"a"}, 0},
		{"waited too long", map[string]*memoryPending{"a": pend(1, memoryMaxWait), "b": pend(5, time.Second)},
			0, []string{"a"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &memoryService{pending: tc.pending, lastWrite: now.Add(-tc.quiet)}
			for _, p := range tc.pending {
				s.queued += len(p.docs)
			}
			due, wait := s.dueLocked(now)
			slices.Sort(due)
			if !slices.Equal(due, tc.want) {
				t.Errorf("due = %v, want %v", due, tc.want)
			}
			if len(tc.want) == 0 && wait != tc.wantWaitL {
				t.Errorf("wait = %v, want %v", wait, tc.wantWaitL)
			}
		})
	}
	t.Run("past the soft bound", func(t *testing.T) {
		s := &memoryService{pending: map[string]*memoryPending{}, lastWrite: now}
		for i := range 40 { // 40 agents of 200 to 239 records: 8,780 in all, none a batch's worth
			s.pending[fmt.Sprintf("a%02d", i)] = pend(200+i, time.Second)
			s.queued += 200 + i
		}
		due, _ := s.dueLocked(now)
		left := s.queued
		for _, id := range due {
			left -= len(s.pending[id].docs)
		}
		if left >= memorySoftQueue/2 || left+len(s.pending[due[len(due)-1]].docs) < memorySoftQueue/2 {
			t.Errorf("due %v leave %d records of %d, want just under half of %d", due, left, s.queued, memorySoftQueue)
		}
		for i, id := range due {
			if want := fmt.Sprintf("a%02d", 39-i); id != want {
				t.Errorf("due[%d] = %s, want %s (the agents with the most first)", i, id, want)
			}
		}
	})
}
