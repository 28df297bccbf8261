package persistence

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// Deferred syncs. A lazy op (a stream header, an AppendDeferred) is
// answered once its cycle has committed: the write is in the engine's
// log, readable, and survives the death of the process (the log is a
// memory-mapped file, so the kernel keeps what a dead process wrote). It
// is not yet safe from a power loss or a kernel crash: that takes the next
// sync, which the next cycle with any other op does before it answers
// anyone, or the committer after Options.DeferredSyncAfter with nothing
// else to do, or Close.
//
// Order is kept: no write becomes durable before a lazy write committed
// ahead of it. A sync covers only the active memtable's log, and Badger
// starts a new memtable (and log) at the first commit that finds the
// active one full. So a cycle is left unsynced only when the active
// memtable cannot be full after it, by an upper bound of its fill that
// the committer keeps (memtableFill): the next commit then lands in the
// same log as the lazy writes and its sync covers them. Near the end of a
// memtable every cycle syncs, as before. Writes that do not go through
// the committer (value-log GC, the reclaim's flush) sync what is pending
// first and leave the bound unknown (full) until a new log shows.

// DeferredAppender is an optional ability of a Journal (check it with a
// type assertion): an append answered before it is durable.
type DeferredAppender interface {
	// AppendDeferred is AppendAfter, answered once the events are written
	// and readable, before they are synced. They survive a crash of the
	// process; a power loss or kernel crash before the store's next sync
	// may lose them (and only with everything appended after them). The
	// next durable append of any stream, or the store itself shortly
	// after, makes them durable. Use it only for events whose loss costs
	// a repeat of work and acknowledges nothing to anyone.
	AppendDeferred(ctx context.Context, stream string, after uint64, events []messages.Event) (uint64, error)
}

var _ DeferredAppender = (*BadgerStore)(nil)

// DefaultDeferredSyncAfter is how long the committer waits, with lazy
// writes unsynced and nothing else to do, before it syncs them itself.
const DefaultDeferredSyncAfter = 2 * time.Millisecond

// AppendDeferred implements DeferredAppender.
func (s *BadgerStore) AppendDeferred(ctx context.Context, stream string, after uint64, events []messages.Event) (uint64, error) {
	recs, err := encodeBatch(stream, redactPayloads(events, s.opts.Redact))
	if err != nil {
		return 0, err
	}
	op := &writeOp{stream: stream, recs: recs, after: after, lazy: true}
	if err := s.submit(ctx, op); err != nil {
		return 0, err
	}
	return op.first, nil
}

// What Badger (v4) adds to a committed entry's key and value, at most, in
// its memtable's skiplist arena (a node of up to 96 bytes, the 8-byte
// version, the value's meta and expiry, alignment) and in its log (the
// entry header, version and checksum); and to a transaction (its end
// marker in the log, the skiplist's head node). Generous on purpose: they
// only have to bound the real figures from above.
const (
	memEntryOverhead = 128
	memTxnOverhead   = 256
)

// memtableFill is an upper bound of how full the active memtable is,
// kept by the committer.
type memtableFill struct {
	fid   int   // number of the active memtable's log file (<fid>.mem)
	bytes int64 // upper bound of what the commits into it added
}

// groupBytes bounds what committing g adds to the memtable.
func groupBytes(g *txnGroup) int64 {
	n := int64(memTxnOverhead)
	for i, sets := range g.entries {
		for _, e := range sets {
			n += int64(len(e.key) + len(e.value) + memEntryOverhead)
		}
		for _, k := range g.dels[i] {
			n += int64(len(k) + memEntryOverhead)
		}
	}
	return n
}

// committed updates the fill after g's commit. Badger starts a new
// memtable only at a commit that finds the active one full, which the
// bound says first; from then on each commit looks for the next log file.
// The commit that started it is all that is in it.
func (s *BadgerStore) committed(g *txnGroup) {
	n := groupBytes(g)
	mayStartNew := s.fill.bytes >= s.opts.MemTableSize
	s.fill.bytes += n
	if mayStartNew && s.memFileExists(s.fill.fid+1) {
		s.fill = memtableFill{fid: s.fill.fid + 1, bytes: memTxnOverhead + n}
	}
}

// mayDefer reports whether a cycle may stay unsynced: the next commit is
// sure to land in the same memtable log.
func (s *BadgerStore) mayDefer() bool { return s.fill.bytes < s.opts.MemTableSize }

func (s *BadgerStore) memFileExists(fid int) bool {
	_, err := os.Stat(filepath.Join(s.opts.Dir, fmt.Sprintf("%05d.mem", fid)))
	return err == nil
}

// activeMemFid is the number of the newest memtable log in the data
// directory: the active memtable's, which Badger creates last.
func activeMemFid(dir string) (int, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.mem"))
	if err != nil {
		return 0, err
	}
	top := 0
	for _, name := range names {
		fid, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(name), ".mem"))
		if err == nil && fid > top {
			top = fid
		}
	}
	return top, nil
}

// beforeOutsideWrite makes lazy writes durable before a write that does
// not go through the committer (it may start a new memtable, which the
// fill cannot foresee). Called with commitMu held.
func (s *BadgerStore) beforeOutsideWrite() error {
	return s.syncPending()
}

// afterOutsideWrite resets the fill after such a write: to empty when it
// left a new, untouched memtable (a flush), else to unknown, which no
// cycle may defer under until the committer sees the next log. Called
// with commitMu held.
func (s *BadgerStore) afterOutsideWrite(flushed bool) {
	fid, err := activeMemFid(s.opts.Dir)
	switch {
	case err == nil && flushed && fid > s.fill.fid:
		s.fill = memtableFill{fid: fid, bytes: memTxnOverhead}
	case err == nil:
		s.fill = memtableFill{fid: fid, bytes: s.opts.MemTableSize}
	default:
		s.fill.bytes = s.opts.MemTableSize
	}
}

// syncPending syncs the lazy writes left unsynced, with the integrity
// marks they changed. Called with commitMu held (or by the committer
// after its last cycle).
func (s *BadgerStore) syncPending() error {
	if !s.pending {
		return nil
	}
	if err := s.failure(); err != nil {
		return err
	}
	return s.syncWithMarks(nil)
}
