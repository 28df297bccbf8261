package persistence

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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
	return s.appendOp(ctx, stream, after, events, true)
}

// memtableFill bounds from above how full the active memtable is, kept
// by the committer. Badger (v4) calls a memtable full when its skiplist's
// arena or its log reaches MemTableSize, so both are counted:
//
//   - the log exactly: a 20-byte file header; per entry a header of two
//     bytes and three uvarints (key length, value length, expiry), the
//     key with its 8-byte version, the value and a 4-byte checksum; per
//     transaction an end marker of at most 48 bytes;
//   - the arena: an offset byte and the head node (103 bytes); per entry
//     the key and version, the value with 3 bytes of meta, and a node of
//     23 + 4 × its height bytes, the height random (one node in three
//     grows a level more, up to 20): 1.5 levels on average. The bound
//     counts 6 for every node: a memtable of thousands of entries would
//     need their mean height four times the expected one to pass it (one
//     entry alone reaches 6 once in 243). Were it ever passed, committed
//     finds the new log anyway and syncs the old one by hand
//     (syncMemFile).
type memtableFill struct {
	fid        int   // number of the active memtable's log file (<fid>.mem)
	arena, log int64 // upper bounds of the arena's and the log's fill
}

const (
	walFileHeaderLen = 20
	walTxnEndMax     = 48
	arenaStart       = 1 + 103
	arenaNodeMax     = 23 + 4*6
)

// emptyFill is the fill of a new memtable, log fid.
func emptyFill(fid int) memtableFill {
	return memtableFill{fid: fid, arena: arenaStart, log: walFileHeaderLen}
}

// unknownFill is the fill of a memtable that may be full: no cycle
// defers under it.
func unknownFill(fid int, limit int64) memtableFill {
	return memtableFill{fid: fid, arena: limit, log: limit}
}

func (f memtableFill) full(limit int64) bool { return f.arena >= limit || f.log >= limit }

// add counts what committing g puts in the memtable.
func (f *memtableFill) add(g *txnGroup) {
	entry := func(k, v int) {
		f.arena += int64(arenaNodeMax + k + 8 + v + 3)
		f.log += int64(2 + uvarintLen(k+8) + uvarintLen(v) + 1 + k + 8 + v + 4)
	}
	for i, sets := range g.entries {
		for _, e := range sets {
			entry(len(e.key), len(e.value))
		}
		for _, k := range g.dels[i] {
			entry(len(k), 0)
		}
	}
	f.log += walTxnEndMax
}

func uvarintLen(n int) int {
	l := 1
	for ; n >= 0x80; n >>= 7 {
		l++
	}
	return l
}

// committed updates the fill after g's commit. Badger starts a new
// memtable only at a commit that finds the active one full, which the
// bound says first; from then on each commit looks for the next log file.
// The commit that started it is all that is in it. With lazy writes
// unsynced it looks too (the bound fell short if it finds one), and then
// syncs the old log, which holds them, before anyone is answered.
func (s *BadgerStore) committed(g *txnGroup) error {
	mayStartNew := s.fill.full(s.opts.MemTableSize)
	s.fill.add(g)
	if !(mayStartNew || s.pending) || !s.memFileExists(s.fill.fid+1) {
		return nil
	}
	old := s.fill.fid
	s.fill = emptyFill(old + 1)
	s.fill.add(g)
	if !s.pending {
		return nil
	}
	s.boundMisses++
	s.log.Warn("journal store: a memtable filled before its bound said; syncing its log by hand", "log", old)
	return s.syncLog(old)
}

// syncMemFile syncs memtable log fid (its writes came through a memory
// map, which a sync of the file covers). A log already gone was flushed
// to a table, which Badger syncs when it writes it.
func (s *BadgerStore) syncMemFile(fid int) error {
	err := syncPath(filepath.Join(s.opts.Dir, fmt.Sprintf("%05d.mem", fid)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("sync memtable log %d: %w", fid, err)
	}
	return nil
}

// mayDefer reports whether a cycle may stay unsynced: the next commit is
// sure to land in the same memtable log.
func (s *BadgerStore) mayDefer() bool { return !s.fill.full(s.opts.MemTableSize) }

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

// afterOutsideWrite resets the fill after such a write: to empty when it
// left a new, untouched memtable (a flush), else to unknown, which no
// cycle may defer under until the committer sees the next log. Called
// with commitMu held.
func (s *BadgerStore) afterOutsideWrite(flushed bool) {
	fid, err := activeMemFid(s.opts.Dir)
	switch {
	case err == nil && flushed && fid > s.fill.fid:
		s.fill = emptyFill(fid)
	case err == nil:
		s.fill = unknownFill(fid, s.opts.MemTableSize)
	default:
		s.fill = unknownFill(s.fill.fid, s.opts.MemTableSize)
	}
}

// syncPending syncs the lazy writes left unsynced, with the integrity
// marks they changed: before a write that does not go through the
// committer (it may start a new memtable, which the fill cannot foresee),
// when the committer is idle, and after its last cycle. Called with
// commitMu held.
func (s *BadgerStore) syncPending() error {
	if !s.pending {
		return nil
	}
	if err := s.failure(); err != nil {
		return err
	}
	return s.syncWithMarks(nil)
}
