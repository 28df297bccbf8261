package persistence

import (
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// kindFlush is the key Reclaim writes and drops to flush the memtables
// (badger_keys.go lists the others). A crash between the two leaves it
// behind, harmless: no reader looks at it and the next Reclaim drops it.
const kindFlush = 'f'

// Reclaim gives the disk of deleted records back. What retention moved to
// the archive is only marked deleted in the LSM tree, and Badger drops a
// deletion and the versions it hides only when a compaction carries them
// to the bottom level with nothing below; the newest deletions sit in
// memtables, which no compaction sees. So Reclaim flushes the memtables
// to level 0 (DropPrefix of a key of its own, Badger's only way to ask for
// a flush), flattens the tree into one level (dropping every deleted record
// and hidden version on the way), then runs value-log GC.
//
// It runs after a retention pass that moved something (Retention.RunOnce),
// never on an append's path, but appends wait for the flush (it holds
// commitMu, as value-log GC does, because Badger refuses writes during a
// DropPrefix); the flatten that follows rewrites the tree while appends go
// on into memtables and level 0. Close waits for it. With it, 100,000
// turns on one agent (bench storage) take 25.4 MB of disk, 22.3 MB of
// them archive segments; without it 47–62 MB.
func (s *BadgerStore) Reclaim() error {
	s.gate.RLock()
	if s.closed {
		s.gate.RUnlock()
		return ErrClosed
	}
	s.wg.Add(1) // Close waits for it
	s.gate.RUnlock()
	defer s.wg.Done()
	if err := s.failure(); err != nil {
		return err
	}
	began := time.Now()
	if err := s.flushMemtables(); err != nil {
		return fmt.Errorf("reclaim deleted records in %s: %w", s.opts.Dir, err)
	}
	flushed := time.Since(began)
	if err := s.db.Flatten(1); err != nil {
		return fmt.Errorf("reclaim deleted records in %s: %w", s.opts.Dir, err)
	}
	s.runGC()
	s.log.Debug("reclaimed deleted records", "dir", s.opts.Dir, "flush", flushed, "took", time.Since(began))
	return nil
}

// flushMemtables writes every memtable to level 0, appends waiting.
func (s *BadgerStore) flushMemtables() error {
	key := []byte{kindFlush}
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if err := s.syncPending(); err != nil { // the flush starts a new memtable
		return err
	}
	defer s.afterOutsideWrite(true)
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(key, nil) }); err != nil {
		return err
	}
	return s.db.DropPrefix(key)
}

// Compacting reports whether the engine has compactions due: a level
// (level 0 by its table count, the others by their size) over its target.
// A store just filled faster than it compacts (a bulk import, a journal
// written without syncs) stays so for a while, its compactions taking
// the CPU and memory the rest of the process would use.
func (s *BadgerStore) Compacting() bool { return compactionsDue(s.db.Levels()) }

// compactionsDue reports a level whose score (what the engine compacts
// by: at 1 and over, a compaction is due) says so.
func compactionsDue(levels []badger.LevelInfo) bool {
	for _, l := range levels {
		if l.Score >= 1 {
			return true
		}
	}
	return false
}
