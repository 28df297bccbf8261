package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
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
// agents' actors. Indexing is lazy: an agent hands the records a durable
// batch wrote to write, which never blocks and only adds them to the
// agent's pending records (and leaves a pending marker beside its index,
// so a crash before they are indexed has the next process rebuild it).
// One indexer goroutine (memory_indexer.go) writes an agent's pending
// records in one transaction when there are many, when they have waited
// long, when the runtime is quiet, or when the agent searches its memory
// (a search first indexes everything written before it); so a busy
// runtime spends one core at most on indexing, and a transaction, an open
// database and FTS5's segment write serve many records. Both are
// derived: an index that is missing, stale or corrupt is rebuilt from the
// agent's journal and memory files (memorySource), and the ledger is
// rewritten from the journal with it. The runtime owns the service; stop
// indexes what is pending, waits for the indexer and closes the indexes.
type memoryService struct {
	home string // HOLON_HOME; "" disables the service
	// offerOnly keeps no index though home is set: the memory tools are
	// offered, records are not kept and a search fails (errNoIndex).
	offerOnly bool
	journal   persistence.Journal

	mu sync.Mutex
	// pending are the records not yet indexed, by agent, at most
	// memoryQueue in all: beyond it an agent's records are dropped and its
	// index marked lost, to be rebuilt from the journal before its next use.
	pending   map[string]*memoryPending
	queued    int             // records pending in all; guarded by mu
	lastWrite time.Time       // the newest write handed over; guarded by mu
	working   bool            // the indexer runs; guarded by mu
	idle      *sync.Cond      // broadcast on mu as the indexer ends
	kick      chan struct{}   // wakes the indexer early (capacity 1)
	lost      map[string]bool // agents whose records were dropped; guarded by mu
	marked    map[string]bool // agents whose pending marker this service left; guarded by mu
	closing   bool            // stop began: no indexer starts; guarded by mu
	stopped   bool            // guarded by mu

	// flushMu makes index writes take turns (the indexer's and a search's
	// catch-up): an agent's records are written in the order they were
	// taken, and one write runs at a time.
	flushMu sync.Mutex

	// ixMu guards indexes and clock; it is held while an index is opened
	// or rebuilt.
	ixMu    sync.Mutex
	indexes map[string]*openIndex
	clock   uint64 // counts index uses, for the least recently used
}

// memoryPending is an agent's records waiting to be indexed, oldest
// first, when the first of them was handed over, and the journal seq of
// the batch that wrote it: the records from there on are all pending.
type memoryPending struct {
	docs     []memory.Doc
	episodes []messages.Episode
	since    time.Time
	from     uint64
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

// memoryQueue bounds the records pending in all.
const memoryQueue = 16384

func newMemoryService(home string, journal persistence.Journal) *memoryService {
	s := &memoryService{home: home, journal: journal, indexes: map[string]*openIndex{}, lost: map[string]bool{},
		pending: map[string]*memoryPending{}, marked: map[string]bool{}, kick: make(chan struct{}, 1)}
	s.idle = sync.NewCond(&s.mu)
	return s
}

// enabled reports whether agents have homes to keep memory in.
func (s *memoryService) enabled() bool { return s != nil && s.home != "" }

// write hands the memory records of a batch agent id made durable at at,
// from journal seq from on, to the service, without blocking on indexing.
func (s *memoryService) write(id string, batch []messages.Payload, at time.Time, from uint64) {
	if !s.enabled() || s.offerOnly {
		return
	}
	var docs []memory.Doc
	var eps []messages.Episode
	for _, p := range batch {
		docs = appendMemoryDocs(docs, id, p, at)
		if e, ok := p.(messages.EpisodeFinalized); ok {
			eps = append(eps, e.Episode)
		}
	}
	if len(docs) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.stopped:
		return
	case s.queued+len(docs) > memoryQueue:
		s.lost[id] = true
		return
	}
	p := s.pending[id]
	if p == nil {
		p = &memoryPending{since: time.Now(), from: from}
		s.pending[id] = p
		s.markPending(id)
	}
	p.docs, p.episodes = append(p.docs, docs...), append(p.episodes, eps...)
	s.queued += len(docs)
	s.lastWrite = time.Now()
	if len(p.docs) >= memoryBatch && len(p.docs)-len(docs) < memoryBatch || s.queued >= memorySoftQueue {
		select {
		case s.kick <- struct{}{}:
		default:
		}
	}
	if !s.working && !s.closing {
		s.working = true
		go s.work()
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
// first use. The caller releases it when done; until then it stays open.
func (s *memoryService) index(ctx context.Context, id string) (*memory.Index, func(), error) {
	ix, release, _, err := s.open(ctx, id, 0)
	return ix, release, err
}

// open is index for a caller that will write the records of the journal
// from seq pendingFrom on itself (0: none): an index built when it is
// opened (missing, stale, corrupt or dirty) reads the journal only up to
// there, so a new agent's first index costs no journal read. It says
// whether it rebuilt the index from the whole journal and the memory
// files: then the index holds every record made durable before the call.
// An agent whose records were dropped, or whose pending marker was left
// by an earlier process (which ended before it indexed them), has its
// index rebuilt.
func (s *memoryService) open(ctx context.Context, id string, pendingFrom uint64) (*memory.Index, func(), bool, error) {
	if !s.enabled() {
		return nil, nil, false, ErrMemoryUnavailable
	}
	s.mu.Lock()
	stopped, lost, ours := s.stopped, s.lost[id], s.marked[id]
	delete(s.lost, id)
	s.mu.Unlock()
	if stopped {
		return nil, nil, false, ErrRuntimeClosed
	}
	home := s.agentHome(id)
	if home == "" {
		return nil, nil, false, fmt.Errorf("memory of %s: %w", id, ErrInvalidAgentID)
	}
	s.ixMu.Lock()
	defer s.ixMu.Unlock()
	var rebuilt atomic.Bool
	upTo := new(atomic.Uint64) // the last journal seq a rebuild reads; 0: all of it
	src := rebuildFlag(memorySource(s.journal, id, home, upTo), upTo, &rebuilt)
	o, ok := s.indexes[id]
	stale := !ok && !ours && pendingLeft(home)
	if !ok {
		lost = lost || stale
		if pendingFrom > 1 && !lost {
			upTo.Store(pendingFrom - 1)
		}
		ix, err := memory.Open(indexDir(home), memory.Options{AgentID: id, Source: src})
		upTo.Store(0) // the index keeps src for later rebuilds: of the whole journal
		if err != nil {
			return nil, nil, false, fmt.Errorf("open memory index of %s: %w", id, err)
		}
		o = &openIndex{ix: ix}
		s.indexes[id] = o
	}
	if (lost && !rebuilt.Load()) || o.ix.Dirty() {
		if err := o.ix.Rebuild(ctx, src); err != nil {
			return nil, nil, false, fmt.Errorf("rebuild memory index of %s: %w", id, err)
		}
	}
	if stale {
		s.unmarkLeft(id, home) // what an earlier process left is in the rebuilt index
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
	}, rebuilt.Load(), nil
}

// rebuildFlag is src, setting rebuilt when an index is built from it and
// the whole journal (upTo 0).
func rebuildFlag(src memory.Source, upTo *atomic.Uint64, rebuilt *atomic.Bool) memory.Source {
	return memory.SourceFunc(func(ctx context.Context, yield func(memory.Doc) error) error {
		if upTo.Load() == 0 {
			rebuilt.Store(true)
		}
		return src.Docs(ctx, yield)
	})
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
	s.mu.Lock()
	if p := s.pending[id]; p != nil {
		s.queued -= len(p.docs)
		delete(s.pending, id)
	}
	delete(s.marked, id)
	s.mu.Unlock()
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

// search runs q over agent id's memory, after indexing the records it
// handed over before it and a check of its memory files.
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
	switch {
	case !s.enabled():
		return nil, nil, ErrMemoryUnavailable
	case s.offerOnly:
		return nil, nil, errNoIndex
	}
	if err := s.flushAgent(ctx, id); err != nil {
		return nil, nil, err
	}
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

// stop waits for the indexer, indexes every record still pending and
// closes every index.
func (s *memoryService) stop() {
	s.mu.Lock()
	s.closing = true
	select {
	case s.kick <- struct{}{}:
	default:
	}
	for s.working {
		s.idle.Wait()
	}
	s.mu.Unlock()
	s.flushAll(context.Background())
	s.mu.Lock()
	s.stopped = true
	s.pending, s.queued = map[string]*memoryPending{}, 0
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
