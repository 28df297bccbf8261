package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/holon-actors/holon-actors/memory"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// ErrMemoryUnavailable is returned by the memory reads of a runtime
// without agent homes (no HOLON_HOME): there is no index to search.
var ErrMemoryUnavailable = errors.New("actors: memory search needs agent homes (HOLON_HOME)")

// memoryService keeps each agent's memory index (memory.Index, under
// agent_home/.holon/indexes) and its episode ledger
// (agent_home/.holon/ledger/context_episodes.jsonl) current, off the
// agents' actors: an agent hands the records a durable batch wrote to
// write, which never blocks; a worker goroutine, started when there is
// work and ending when there is none, upserts them in order. Both are
// derived: an index that is missing, stale or corrupt is rebuilt from the
// agent's journal and memory files (memorySource), and the ledger is
// rewritten from the journal with it. The runtime owns the service; stop
// waits for the worker and closes the indexes.
type memoryService struct {
	home    string // HOLON_HOME; "" disables the service
	journal persistence.Journal

	mu sync.Mutex
	// pending are the writes not yet run, oldest first, at most
	// memoryQueue: beyond it an agent's records are dropped and its index
	// marked lost, to be rebuilt from the journal before its next use.
	pending []memoryWrite
	working bool            // a worker runs the pending writes; guarded by mu
	idle    *sync.Cond      // broadcast on mu as the worker runs writes and ends
	queued  uint64          // writes handed over; guarded by mu
	ran     uint64          // writes run; guarded by mu
	lost    map[string]bool // agents whose records were dropped; guarded by mu
	stopped bool            // guarded by mu

	// ixMu guards indexes and clock; it is held while an index is opened
	// or rebuilt.
	ixMu    sync.Mutex
	indexes map[string]*openIndex
	clock   uint64 // counts index uses, for the least recently used
}

// openIndex is an open index, with its users and its last use: at most
// maxOpenIndexes stay open, the least recently used idle ones closed
// first, so a runtime of thousands of agents does not hold thousands of
// databases (and three descriptors each) open.
type openIndex struct {
	ix    *memory.Index
	users int    // index uses not yet released; guarded by ixMu
	used  uint64 // the clock at its last use; guarded by ixMu
	gone  bool   // forgotten while in use: closed at its last release; guarded by ixMu
}

// maxOpenIndexes bounds the indexes kept open when idle.
const maxOpenIndexes = 64

// memoryWrite is one durable batch's records for agent id.
type memoryWrite struct {
	id       string
	docs     []memory.Doc
	episodes []messages.Episode
}

const memoryQueue = 4096

func newMemoryService(home string, journal persistence.Journal) *memoryService {
	s := &memoryService{home: home, journal: journal, indexes: map[string]*openIndex{}, lost: map[string]bool{}}
	s.idle = sync.NewCond(&s.mu)
	return s
}

// enabled reports whether agents have homes to keep memory in.
func (s *memoryService) enabled() bool { return s != nil && s.home != "" }

// write hands the memory records of a batch agent id made durable at at
// to the service, without blocking.
func (s *memoryService) write(id string, batch []messages.Payload, at time.Time) {
	if !s.enabled() {
		return
	}
	w := memoryWrite{id: id}
	for _, p := range batch {
		w.docs = append(w.docs, memoryDocs(id, p, at)...)
		if e, ok := p.(messages.EpisodeFinalized); ok {
			w.episodes = append(w.episodes, e.Episode)
		}
	}
	if len(w.docs) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.stopped:
	case len(s.pending) >= memoryQueue:
		s.lost[id] = true
	default:
		s.pending = append(s.pending, w)
		s.queued++
		if !s.working {
			s.working = true
			go s.work()
		}
	}
}

// work runs the pending writes until none is left, all that wait at
// once.
func (s *memoryService) work() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.pending) > 0 {
		batch := s.pending
		s.pending = nil
		s.mu.Unlock()
		for _, w := range byAgent(batch) {
			s.apply(w)
		}
		s.mu.Lock()
		s.ran += uint64(len(batch))
		s.idle.Broadcast()
	}
	s.working = false
	s.idle.Broadcast()
}

// byAgent merges the writes of each agent, in order, so each agent's
// index takes one transaction for all its records waiting.
func byAgent(ws []memoryWrite) []memoryWrite {
	var out []memoryWrite
	at := map[string]int{}
	for _, w := range ws {
		i, ok := at[w.id]
		if !ok {
			at[w.id], out = len(out), append(out, memoryWrite{id: w.id})
			i = len(out) - 1
		}
		out[i].docs = append(out[i].docs, w.docs...)
		out[i].episodes = append(out[i].episodes, w.episodes...)
	}
	return out
}

// apply runs one write: the records upserted, the episodes appended to
// the ledger. A failure marks the index dirty so its next use rebuilds it.
func (s *memoryService) apply(w memoryWrite) {
	ix, release, err := s.index(context.Background(), w.id)
	if err != nil {
		return // the next use opens (and rebuilds) it again
	}
	defer release()
	if err := ix.Upsert(w.docs...); err != nil {
		_ = ix.MarkDirty()
	}
	if len(w.episodes) > 0 {
		_ = appendLedger(s.agentHome(w.id), w.episodes)
	}
}

// flush waits until every write handed over before it ran, or was
// dropped by stop.
func (s *memoryService) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for target := s.queued; s.ran < target && s.working; {
		s.idle.Wait()
	}
}

func (s *memoryService) agentHome(id string) string {
	home, err := persistence.AgentHome(s.home, id)
	if err != nil {
		return ""
	}
	return home
}

// index is agent id's open index, opened (and rebuilt when needed) on
// first use; an agent whose records were dropped has its index rebuilt.
// The caller releases it when done; until then it stays open.
func (s *memoryService) index(ctx context.Context, id string) (*memory.Index, func(), error) {
	if !s.enabled() {
		return nil, nil, ErrMemoryUnavailable
	}
	s.mu.Lock()
	stopped, lost := s.stopped, s.lost[id]
	delete(s.lost, id)
	s.mu.Unlock()
	if stopped {
		return nil, nil, ErrRuntimeClosed
	}
	home := s.agentHome(id)
	if home == "" {
		return nil, nil, fmt.Errorf("memory of %s: %w", id, ErrInvalidAgentID)
	}
	s.ixMu.Lock()
	defer s.ixMu.Unlock()
	src := memorySource(s.journal, id, home)
	o, ok := s.indexes[id]
	if !ok {
		ix, err := memory.Open(filepath.Join(home, ".holon", "indexes"), memory.Options{AgentID: id, Source: src})
		if err != nil {
			return nil, nil, fmt.Errorf("open memory index of %s: %w", id, err)
		}
		o = &openIndex{ix: ix}
		s.indexes[id] = o
	}
	if lost || o.ix.Dirty() {
		if err := o.ix.Rebuild(ctx, src); err != nil {
			return nil, nil, fmt.Errorf("rebuild memory index of %s: %w", id, err)
		}
	}
	s.clock++
	o.users, o.used = o.users+1, s.clock
	s.closeIdle()
	var once sync.Once
	return o.ix, func() {
		once.Do(func() {
			s.ixMu.Lock()
			o.users--
			if o.gone && o.users == 0 {
				_ = o.ix.Close()
			}
			s.closeIdle()
			s.ixMu.Unlock()
		})
	}, nil
}

// closeIdle closes the least recently used idle indexes beyond
// maxOpenIndexes; s.ixMu is held.
func (s *memoryService) closeIdle() {
	for len(s.indexes) > maxOpenIndexes {
		var oldest string
		for id, o := range s.indexes {
			if o.users == 0 && (oldest == "" || o.used < s.indexes[oldest].used) {
				oldest = id
			}
		}
		if oldest == "" {
			return // all in use: closed as they are released
		}
		_ = s.indexes[oldest].ix.Close()
		delete(s.indexes, oldest)
	}
}

// forget drops agent id's open index, so a deleted agent's database is
// not held open (nor reused by an agent created again under its id): it
// is closed now, or at its last release when in use.
func (s *memoryService) forget(id string) {
	if !s.enabled() {
		return
	}
	s.ixMu.Lock()
	defer s.ixMu.Unlock()
	o, ok := s.indexes[id]
	if !ok {
		return
	}
	delete(s.indexes, id)
	if o.users == 0 {
		_ = o.ix.Close()
		return
	}
	o.gone = true
}

// search runs q over agent id's memory, after the records handed over
// before it and a check of its memory files.
func (s *memoryService) search(ctx context.Context, id string, q memory.Query) ([]memory.Hit, error) {
	ix, release, err := s.ready(ctx, id)
	if err != nil {
		return nil, err
	}
	defer release()
	return ix.Search(ctx, q)
}

// get expands ref of agent id's memory.
func (s *memoryService) get(ctx context.Context, id, ref string, maxChars int) (memory.Got, error) {
	ix, release, err := s.ready(ctx, id)
	if err != nil {
		return memory.Got{}, err
	}
	defer release()
	return ix.Get(ref, maxChars)
}

func (s *memoryService) ready(ctx context.Context, id string) (*memory.Index, func(), error) {
	if !s.enabled() {
		return nil, nil, ErrMemoryUnavailable
	}
	s.flush()
	ix, release, err := s.index(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if _, err := ix.CheckFiles(s.agentHome(id)); err != nil {
		release()
		return nil, nil, fmt.Errorf("check memory files of %s: %w", id, err)
	}
	return ix, release, nil
}

// stop drops the writes not yet run, waits for the worker and closes
// every index.
func (s *memoryService) stop() {
	s.mu.Lock()
	s.stopped, s.pending = true, nil
	for s.working {
		s.idle.Wait()
	}
	s.mu.Unlock()
	s.ixMu.Lock()
	defer s.ixMu.Unlock()
	for id, o := range s.indexes {
		_ = o.ix.Close()
		delete(s.indexes, id)
	}
}

// episodeLedgerPath is where an agent's finalized episodes are listed.
func episodeLedgerPath(home string) string {
	return filepath.Join(home, ".holon", "ledger", "context_episodes.jsonl")
}

// appendLedger appends episodes to the ledger of the agent in home.
func appendLedger(home string, eps []messages.Episode) error {
	if home == "" {
		return nil
	}
	path := episodeLedgerPath(home)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("ledger dir: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("open ledger: %w", err)
	}
	enc := json.NewEncoder(f)
	for _, e := range eps {
		if err := enc.Encode(e); err != nil {
			_ = f.Close()
			return fmt.Errorf("append ledger: %w", err)
		}
	}
	return f.Close()
}
