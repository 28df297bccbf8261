package actors

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// When the indexer writes an agent's pending records (memoryService):
const (
	// memoryBatch: an agent with this many records pending is indexed
	// at once, in one transaction.
	memoryBatch = 256
	// memorySoftQueue: with this many records pending in all, the agents
	// with the most are indexed until half are left.
	memorySoftQueue = 8192
	// memoryQuiet: once no record has been handed over for this long,
	// everything pending is indexed.
	memoryQuiet = time.Second
	// memoryMaxWait: a record waits at most about this long.
	memoryMaxWait = 30 * time.Second
)

// work is the indexer: it indexes the agents whose records are due
// (dueLocked), one agent a transaction, and otherwise waits until some
// are, until no record is pending or the service stops.
func (s *memoryService) work() {
	ctx := context.Background()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		s.mu.Lock()
		if len(s.pending) == 0 || s.closing {
			s.working = false
			s.idle.Broadcast()
			s.mu.Unlock()
			return
		}
		due, wait := s.dueLocked(time.Now())
		s.mu.Unlock()
		for _, id := range due {
			_ = s.flushAgent(ctx, id) // a failure leaves the index to be rebuilt at its next use
		}
		if len(due) > 0 {
			continue
		}
		timer.Reset(wait)
		select {
		case <-s.kick:
			timer.Stop() // no stale fire can follow (Go 1.23 timers)
		case <-timer.C:
		}
	}
}

// dueLocked is the agents whose pending records are to be indexed now,
// or else how long until some are; s.mu is held. Everything is due once
// the runtime has been quiet for memoryQuiet; before that an agent with
// memoryBatch records, or whose oldest has waited memoryMaxWait, and,
// past memorySoftQueue records in all, the agents with the most until
// half are left.
func (s *memoryService) dueLocked(now time.Time) (due []string, wait time.Duration) {
	quiet := memoryQuiet - now.Sub(s.lastWrite)
	wait = quiet
	left := s.queued
	for id, p := range s.pending {
		age := memoryMaxWait - now.Sub(p.since)
		if quiet <= 0 || age <= 0 || len(p.docs) >= memoryBatch {
			due = append(due, id)
			left -= len(p.docs)
			continue
		}
		wait = min(wait, age)
	}
	if left >= memorySoftQueue {
		var rest []string
		for id := range s.pending {
			if !slices.Contains(due, id) {
				rest = append(rest, id)
			}
		}
		slices.SortFunc(rest, func(a, b string) int { return len(s.pending[b].docs) - len(s.pending[a].docs) })
		for _, id := range rest {
			if left < memorySoftQueue/2 {
				break
			}
			due = append(due, id)
			left -= len(s.pending[id].docs)
		}
	}
	return due, max(wait, time.Millisecond)
}

// flushAgent indexes agent id's pending records in one transaction and
// appends its episodes to its ledger; with none pending it does nothing.
// An index the call rebuilt from the whole journal already holds them
// (and the rebuild rewrote the ledger). A failed write marks the index dirty, so
// its next use rebuilds it.
func (s *memoryService) flushAgent(ctx context.Context, id string) error {
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	s.mu.Lock()
	p := s.pending[id]
	if p != nil {
		delete(s.pending, id)
		s.queued -= len(p.docs)
	}
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	ix, release, rebuilt, err := s.open(ctx, id, p.from)
	if err != nil {
		if errors.Is(err, ErrRuntimeClosed) {
			return err
		}
		s.lose(id) // the records stay in the journal: the next use rebuilds
		return err
	}
	defer release()
	if !rebuilt {
		if err := ix.Upsert(p.docs...); err != nil {
			_ = ix.MarkDirty()
		}
		if len(p.episodes) > 0 {
			_ = appendLedger(s.agentHome(id), p.episodes)
		}
	}
	s.unmark(id)
	return nil
}

// flushAll indexes every agent's pending records.
func (s *memoryService) flushAll(ctx context.Context) {
	s.mu.Lock()
	ids := make([]string, 0, len(s.pending))
	for id := range s.pending {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	for _, id := range ids {
		_ = s.flushAgent(ctx, id)
	}
}

// flushMemory indexes every record handed over before it.
func (s *memoryService) flushMemory(ctx context.Context) {
	if s.enabled() {
		s.flushAll(ctx)
	}
}

// lose marks agent id's index lost (its records dropped), to be rebuilt
// at its next use.
func (s *memoryService) lose(id string) {
	s.mu.Lock()
	s.lost[id] = true
	s.mu.Unlock()
}

// The pending marker (agent_home/.holon/indexes/memory.pending) says an
// agent has records handed over but not indexed: a process that finds
// one it did not leave rebuilds the agent's index from the journal.
const pendingMarker = "memory.pending"

func indexDir(home string) string { return filepath.Join(home, ".holon", "indexes") }

// markPending leaves agent id's pending marker; s.mu is held. It is a
// file created once per batch of pending records, not synced: it outlives
// the process, which is the crash it is for.
func (s *memoryService) markPending(id string) {
	home := s.agentHome(id)
	if home == "" {
		return
	}
	path := filepath.Join(indexDir(home), pendingMarker)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
	if errors.Is(err, os.ErrNotExist) && os.MkdirAll(filepath.Dir(path), 0o700) == nil {
		f, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
	}
	if err != nil {
		s.lost[id] = true // unmarked records could be lost to a crash: rebuild at the next use
		return
	}
	_ = f.Close()
	s.marked[id] = true
}

// unmark removes agent id's pending marker unless records came in again
// since they were taken.
func (s *memoryService) unmark(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, again := s.pending[id]; again || !s.marked[id] {
		return
	}
	delete(s.marked, id)
	if home := s.agentHome(id); home != "" {
		_ = os.Remove(filepath.Join(indexDir(home), pendingMarker))
	}
}

// unmarkLeft removes the pending marker an earlier process left in home
// once the index holds its records, unless this service marked it since.
func (s *memoryService) unmarkLeft(id, home string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.marked[id] {
		_ = os.Remove(filepath.Join(indexDir(home), pendingMarker))
	}
}

// pendingLeft reports whether home holds a pending marker.
func pendingLeft(home string) bool {
	_, err := os.Stat(filepath.Join(indexDir(home), pendingMarker))
	return err == nil
}
