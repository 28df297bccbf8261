package persistence

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"

	"github.com/holon-actors/holon-actors/messages"
)

// Options configures the Badger store. Start from DefaultOptions.
type Options struct {
	// Dir is the data directory ($HOLON_HOME/data). Open creates it (0700)
	// and locks it until Close.
	Dir string
	// NoSync skips the group commit's sync. Appends are then NOT durable:
	// it exists only to measure the ceiling in benchmarks.
	NoSync bool
	// MemTableSize, BlockCacheSize, IndexCacheSize and ValueLogFileSize
	// bound Badger's memory and file sizes (see DefaultOptions).
	MemTableSize     int64
	BlockCacheSize   int64
	IndexCacheSize   int64
	ValueLogFileSize int64
	// MinFreeBytes is the free space the data directory's file system must
	// keep: below it, writes fail with ErrDiskFull before reaching Badger,
	// whose memory-mapped logs would otherwise crash the process on a full
	// disk. Deletions are still allowed, since they free space.
	MinFreeBytes int64
	// GCInterval is how often value-log garbage collection runs; 0 turns
	// it off.
	GCInterval time.Duration
	// DeferredSyncAfter is how long lazy writes (AppendDeferred, stream
	// headers) may wait unsynced for a cycle that syncs them, before the
	// committer syncs them itself (badger_deferred.go); 0 means
	// DefaultDeferredSyncAfter.
	DeferredSyncAfter time.Duration
	// Logger receives Badger's warnings and errors and the store's own
	// reports. Nil means slog.Default().
	Logger *slog.Logger
	// Now is the clock for quarantine records. Nil means time.Now.
	Now func() time.Time
	// Redact, when set, scrubs each event's payload (JSON) before it is
	// written: the journal is one of the sinks no credential may reach.
	// It must keep the payload valid JSON and return it unchanged when
	// there is nothing to scrub (secrets.Registry.RedactBytes does both).
	Redact func([]byte) []byte
}

// DefaultOptions returns options sized for a long-running daemon on a small
// machine: about 75 MiB of Badger's memtables and caches at most, whatever
// the data size. Not counted there: Badger keeps up to 8 table builders'
// buffers between builds, each as large as the largest table it built
// (a memtable flush: ≈ 16 MiB and more), which steady writes keep filled
// (≈ 110 MB of heap after 16,000 turns of one agent); it has no option
// for that pool's size.
//
//   - MemTableSize 16 MiB × 3 memtables (Badger's default is 64 MiB × 5):
//     journal records are small and flushed often; this caps write buffers.
//   - BlockCacheSize 8 MiB, IndexCacheSize 16 MiB (defaults: 256 MiB and
//     unbounded): the store is read when an agent is activated (its
//     snapshot and journal tail, once) and at recovery; hot reads are
//     served by the agents' in-memory state, not by the store. A larger
//     block cache only kept snapshots read once resident (32 MiB cost
//     ≈ 3 KB per passivated agent at 10,000 agents) without making
//     activation, recovery or turns measurably faster.
//   - ValueLogFileSize 128 MiB: only values over 1 MiB (large snapshots)
//     go to the value log, so small files let GC reclaim space sooner.
//   - MinFreeBytes 64 MiB: room for a memtable flush and a compaction.
//   - GCInterval 10 minutes.
func DefaultOptions(dir string) Options {
	return Options{
		Dir:              dir,
		MemTableSize:     16 << 20,
		BlockCacheSize:   8 << 20,
		IndexCacheSize:   16 << 20,
		ValueLogFileSize: 128 << 20,
		MinFreeBytes:     64 << 20,
		GCInterval:       10 * time.Minute,
	}
}

// Validate reports the first unusable option.
func (o Options) Validate() error {
	switch {
	case o.Dir == "":
		return errors.New("persistence options: Dir is empty")
	case o.MemTableSize < 1<<20:
		return fmt.Errorf("persistence options: MemTableSize %d is below 1 MiB", o.MemTableSize)
	case o.ValueLogFileSize < 1<<20 || o.ValueLogFileSize >= 2<<30:
		return fmt.Errorf("persistence options: ValueLogFileSize %d is outside [1 MiB, 2 GiB)", o.ValueLogFileSize)
	case o.BlockCacheSize < 0 || o.IndexCacheSize < 0 || o.GCInterval < 0 || o.MinFreeBytes < 0 || o.DeferredSyncAfter < 0:
		return errors.New("persistence options: sizes, GCInterval and DeferredSyncAfter must not be negative")
	}
	return nil
}

// BadgerStore is the durable Store: journals and snapshots of every agent in
// one Badger database with group commit. Open it once per data directory.
type BadgerStore struct {
	opts Options
	db   *badger.DB
	lock *dirLock
	log  *slog.Logger
	hub  notifier

	// ops carries writes to the committer. Senders hold gate.RLock;
	// Close takes gate.Lock, then closes ops, so no send follows the close.
	// The buffer lets a burst of appenders queue while a cycle syncs.
	ops  chan *writeOp
	gate sync.RWMutex
	// closed is set under gate.Lock.
	closed bool

	// commitMu is held by the committer for a whole cycle and by value-log
	// GC, so GC's internal writes never fall between a commit and its sync.
	commitMu sync.Mutex
	// highest caches each stream's highest seq; committer only.
	highest map[string]uint64
	// tailChecked holds, between recover and checkIntegrity at Open, each
	// stream's highest seq whose record the tail check read whole.
	tailChecked map[string]uint64
	// marks is the integrity marks log and marksState every stream's
	// marks as written there; the committer's once Open has checked them.
	marks      *marksLog
	marksState map[string]streamMark
	// sync makes committed writes durable: db.Sync, replaced in tests to
	// inject failures. freeBytes reports the file system's free space.
	sync      func() error
	freeBytes func() (int64, error)
	// pending says lazy writes are committed but not synced, and
	// pendingMarks and pendingNotify hold the marks they changed and the
	// streams whose subscribers wait to hear of them, for the sync that
	// makes them durable; fill bounds the active memtable's fill, which
	// decides whether a cycle may stay unsynced (badger_deferred.go).
	// Committer and outside writers, under commitMu.
	pending       bool
	pendingMarks  map[string]streamMark
	pendingNotify []string
	fill          memtableFill
	// syncLog syncs one memtable log by hand (syncMemFile; replaced in
	// tests); boundMisses counts the times the fill's bound fell short.
	syncLog     func(fid int) error
	boundMisses int

	mu          sync.Mutex // guards the fields below
	failed      error
	quarantines map[string]Quarantine
	dropped     []DroppedRecord
	lost        []LostRange
	torn        []TornWAL
	notes       []string

	skippedSnapshots atomic.Int64

	// moveMu serializes archive moves and purges (badger_archive.go).
	moveMu sync.Mutex
	// archived holds the streams with archive segments; guarded by archMu.
	archMu   sync.Mutex
	archived map[string]struct{}

	stopGC chan struct{} // closed by Close to end the GC loop
	wg     sync.WaitGroup
}

var _ Store = (*BadgerStore)(nil)

// Open opens (creating if needed) the store in o.Dir. It locks the
// directory: when another process holds it, the error wraps ErrLocked and
// names the directory and that process's pid, and nothing is touched. At
// open, corrupt records at a stream's tail are moved aside and reported in
// Health; streams quarantined earlier stay quarantined.
func Open(o Options) (*BadgerStore, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.DeferredSyncAfter == 0 {
		o.DeferredSyncAfter = DefaultDeferredSyncAfter
	}
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	lock, err := lockDir(o.Dir)
	if err != nil {
		return nil, err
	}
	torn, err := findTornWAL(o.Dir)
	if err != nil {
		_ = lock.unlock()
		return nil, fmt.Errorf("open store %s: %w", o.Dir, err)
	}
	db, err := openEngine(badgerOptions(o))
	if err != nil {
		_ = lock.unlock()
		return nil, fmt.Errorf("open store %s: %w", o.Dir, err)
	}
	marks, err := readMarks(o.Dir)
	if err != nil {
		_ = db.Close()
		_ = lock.unlock()
		return nil, fmt.Errorf("open store %s: %w", o.Dir, err)
	}
	s := &BadgerStore{
		opts: o, db: db, lock: lock, log: o.Logger,
		ops:         make(chan *writeOp, maxOpsPerCycle),
		highest:     make(map[string]uint64),
		marksState:  make(map[string]streamMark),
		torn:        torn,
		quarantines: make(map[string]Quarantine),
		stopGC:      make(chan struct{}),
		archived:    make(map[string]struct{}),
	}
	s.sync, s.syncLog = db.Sync, s.syncMemFile
	s.freeBytes = func() (int64, error) { return freeSpace(o.Dir) }
	// Badger opens a new, empty memtable (the newest log) for writes.
	fid, err := activeMemFid(o.Dir)
	if err != nil {
		_ = db.Close()
		_ = lock.unlock()
		return nil, fmt.Errorf("open store %s: %w", o.Dir, err)
	}
	s.fill = emptyFill(fid)
	s.wg.Add(1)
	go s.commitLoop()
	if err := s.recover(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("open store %s: %w", o.Dir, err)
	}
	if err := s.checkIntegrity(marks); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("open store %s: %w", o.Dir, err)
	}
	if err := s.openArchive(context.Background()); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("open store %s: %w", o.Dir, err)
	}
	if o.GCInterval > 0 {
		s.wg.Add(1)
		go s.gcLoop()
	}
	return s, nil
}

// openEngine opens the engine, turning the panics and errors of damaged
// files (Badger panics on a truncated table file) into an error wrapping
// ErrDamaged. Errors that are not about the files' contents (permissions,
// a full disk) are returned as they are.
func openEngine(bo badger.Options) (db *badger.DB, err error) {
	defer func() {
		if p := recover(); p != nil {
			db, err = nil, fmt.Errorf("%w: the storage engine gave up reading its files: %v", ErrDamaged, firstLine(fmt.Sprint(p)))
		}
	}()
	if err := checkTables(bo); err != nil {
		return nil, err
	}
	db, err = badger.Open(bo)
	switch {
	case err == nil:
		return db, nil
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EROFS):
		return nil, err
	}
	return nil, fmt.Errorf("%w: %v", ErrDamaged, firstLine(err.Error()))
}

// firstLine cuts s at its first newline (Badger's errors can carry stacks).
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func badgerOptions(o Options) badger.Options {
	bo := badger.DefaultOptions(o.Dir).
		WithSyncWrites(false). // the group commit syncs once per cycle
		WithMemTableSize(o.MemTableSize).
		WithNumMemtables(3).
		WithBlockCacheSize(o.BlockCacheSize).
		WithIndexCacheSize(o.IndexCacheSize).
		WithValueLogFileSize(o.ValueLogFileSize).
		WithNumCompactors(2).
		WithDetectConflicts(false). // one writer: the committer
		WithNumVersionsToKeep(1).
		WithChecksumVerificationMode(options.OnBlockRead). // a damaged block is an error, not garbage
		WithLogger(badgerLogger{o.Logger})
	return bo
}

// Close waits for in-flight writes, stops the committer and GC, closes
// Badger and releases the directory lock. It is safe to call twice.
func (s *BadgerStore) Close() error {
	s.gate.Lock()
	if s.closed {
		s.gate.Unlock()
		return nil
	}
	s.closed = true
	close(s.ops)
	close(s.stopGC)
	s.gate.Unlock()
	s.wg.Wait()
	err := s.db.Close()
	if s.marks != nil {
		if merr := s.marks.close(); err == nil {
			err = merr
		}
	}
	if uerr := s.lock.unlock(); err == nil && uerr != nil {
		err = uerr
	}
	if err != nil {
		return fmt.Errorf("close store %s: %w", s.opts.Dir, err)
	}
	return nil
}

// submit hands op to the committer and waits for its result.
func (s *BadgerStore) submit(ctx context.Context, op *writeOp) error {
	op.done = make(chan struct{})
	s.gate.RLock()
	if s.closed {
		s.gate.RUnlock()
		return ErrClosed
	}
	select {
	case s.ops <- op:
		s.gate.RUnlock()
	case <-ctx.Done():
		s.gate.RUnlock()
		return ctx.Err()
	}
	// Once queued, the op is answered within one cycle; waiting for it even
	// if ctx ends keeps "error returned" meaning "maybe not written" rare.
	<-op.done
	return op.err
}

// Append implements Journal.
func (s *BadgerStore) Append(ctx context.Context, stream string, events []messages.Event) (uint64, error) {
	return s.AppendAfter(ctx, stream, noFence, events)
}

// AppendAfter implements Journal.
func (s *BadgerStore) AppendAfter(ctx context.Context, stream string, after uint64, events []messages.Event) (uint64, error) {
	return s.appendOp(ctx, stream, after, events, false)
}

// appendOp writes events after seq after as one op, lazy or not (see
// writeOp.lazy), and returns the first seq.
func (s *BadgerStore) appendOp(ctx context.Context, stream string, after uint64, events []messages.Event, lazy bool) (uint64, error) {
	recs, err := encodeBatch(stream, redactPayloads(events, s.opts.Redact))
	if err != nil {
		return 0, err
	}
	op := &writeOp{stream: stream, recs: recs, after: after, lazy: lazy}
	if err := s.submit(ctx, op); err != nil {
		return 0, err
	}
	return op.first, nil
}

// Read implements Journal. A record that fails its checksum, or a seq
// missing between the stream's retention mark and its highest seq (a gap:
// events lost from the data files), quarantines the stream; the error wraps
// ErrQuarantined and ErrCorrupt (and ErrGap for a gap). A read never stops
// short silently.
func (s *BadgerStore) Read(ctx context.Context, stream string, from, to uint64, limit int) ([]messages.Event, error) {
	return s.ReadPage(ctx, stream, from, to, limit, 0)
}

// ReadPage implements Journal. The size of a record is read from Badger's
// index before its value is, so a page never loads the record past its bound.
//
// Events at or below the stream's retention mark come from its archive
// segments, when it has any (badger_archive.go); the rest from the journal.
func (s *BadgerStore) ReadPage(ctx context.Context, stream string, from, to uint64, limit, maxBytes int) ([]messages.Event, error) {
	if err := s.readable(stream); err != nil {
		return nil, err
	}
	if from > to {
		return nil, nil
	}
	for {
		out, again, err := s.readPage(ctx, stream, from, to, limit, maxBytes)
		if !again {
			return out, err
		}
	}
}

// readPage is one attempt of ReadPage; again is set when an archive move
// raised the retention mark between the archive's part of the page and the
// journal's, so the page must be read again.
func (s *BadgerStore) readPage(ctx context.Context, stream string, from, to uint64, limit, maxBytes int) (out []messages.Event, again bool, err error) {
	var bad error
	var badSeq uint64
	var size int64
	archived, archLow := s.hasArchive(stream), uint64(0)
	if archived {
		if out, size, archLow, err = s.readArchived(stream, from, to, limit, maxBytes); err != nil {
			return nil, false, err
		}
	}
	err = s.db.View(func(txn *badger.Txn) error {
		bounds, err := readBounds(txn, stream)
		if err != nil {
			return err
		}
		if bounds.low != archLow && from <= bounds.low && (archived || s.hasArchive(stream)) {
			again = true
			return nil
		}
		next := max(from, bounds.low+1) // the next seq that must be present
		it := txn.NewIterator(badger.IteratorOptions{Prefix: streamPrefix(kindEvent, stream)})
		defer it.Close()
		for it.Seek(eventKey(stream, next)); it.Valid(); it.Next() {
			seq := seqOf(it.Item().Key())
			size += it.Item().ValueSize()
			if limit > 0 && len(out) >= limit || maxBytes > 0 && size > int64(maxBytes) && len(out) > 0 {
				return nil
			}
			if seq > to {
				break
			}
			if seq > next {
				if badSeq, bad = checkGap(txn, stream, next, seq-1); bad != nil {
					return nil
				}
			}
			next = seq + 1
			err := it.Item().Value(func(v []byte) error {
				ev, err := decodeRecord(v, seq, stream)
				out = append(out, ev)
				return err
			})
			if err != nil {
				bad, badSeq = err, seq
				out = out[:len(out)-1]
				return nil
			}
		}
		if end := min(to, bounds.highest); next <= end {
			badSeq, bad = checkGap(txn, stream, next, end)
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", stream, err)
	}
	if bad != nil {
		return nil, false, s.onCorruptRead(ctx, stream, badSeq, bad)
	}
	return out, again, nil
}

// streamBounds are the marks that say which of a stream's seqs must exist:
// every seq in low+1..highest, unless moved aside as a corrupt tail.
type streamBounds struct{ low, highest uint64 }

func readBounds(txn *badger.Txn, stream string) (streamBounds, error) {
	var b streamBounds
	var err error
	if b.highest, err = getSeq(txn, highestKey(stream)); err != nil {
		return b, err
	}
	b.low, err = getSeq(txn, lowKey(stream))
	return b, err
}

// getSeq reads an 8-byte seq value; a missing key is 0.
func getSeq(txn *badger.Txn, key []byte) (uint64, error) {
	item, err := txn.Get(key)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var seq uint64
	err = item.Value(func(v []byte) error {
		if len(v) != 8 {
			return fmt.Errorf("%w: key %q holds %d bytes, want 8", ErrCorrupt, key, len(v))
		}
		seq = seqOf(v)
		return nil
	})
	return seq, err
}

// checkGap reports the first seq of from..to that is missing: not moved
// aside as a corrupt tail record (those leave a gap by design). It returns
// that seq and an error wrapping ErrCorrupt and ErrGap, or 0, nil.
func checkGap(txn *badger.Txn, stream string, from, to uint64) (uint64, error) {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: streamPrefix(kindDropped, stream)})
	defer it.Close()
	want := from
	for it.Seek(droppedKey(stream, from)); it.Valid() && want <= to; it.Next() {
		if seqOf(it.Item().Key()) != want {
			break
		}
		want++
	}
	if want > to {
		return 0, nil
	}
	end := to
	if it.Valid() {
		end = min(to, seqOf(it.Item().Key())-1)
	}
	return want, fmt.Errorf("%w: %w: events %d..%d are missing from the data files", ErrCorrupt, ErrGap, want, end)
}

func (s *BadgerStore) onCorruptRead(ctx context.Context, stream string, seq uint64, bad error) error {
	if !errors.Is(bad, ErrCorrupt) {
		return fmt.Errorf("read %s seq %d: %w", stream, seq, bad)
	}
	// The quarantine is recorded whatever the caller's context says: it
	// protects every later reader, not this one.
	if err := s.quarantine(context.WithoutCancel(ctx), stream, seq, bad.Error()); err != nil {
		return fmt.Errorf("read %s seq %d: %w; quarantine failed: %v", stream, seq, bad, err)
	}
	return fmt.Errorf("read %s seq %d: %w: %w", stream, seq, ErrQuarantined, bad)
}

// readable checks the store and stream before a read.
func (s *BadgerStore) readable(stream string) error {
	if err := validateStream(stream); err != nil {
		return err
	}
	if err := s.usable(); err != nil {
		return err
	}
	if q, ok := s.quarantined(stream); ok {
		return fmt.Errorf("read %s: %w at seq %d: %s", stream, ErrQuarantined, q.Seq, q.Reason)
	}
	return nil
}

// usable returns ErrClosed or the store's failure, if any.
func (s *BadgerStore) usable() error {
	s.gate.RLock()
	closed := s.closed
	s.gate.RUnlock()
	if closed {
		return ErrClosed
	}
	return s.failure()
}

// HighestSeq implements Journal.
func (s *BadgerStore) HighestSeq(_ context.Context, stream string) (uint64, error) {
	if err := validateStream(stream); err != nil {
		return 0, err
	}
	if err := s.usable(); err != nil {
		return 0, err
	}
	return s.loadHighest(stream)
}

func (s *BadgerStore) loadHighest(stream string) (uint64, error) {
	var h uint64
	err := s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(highestKey(stream))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) error {
			if len(v) != 8 {
				return fmt.Errorf("%w: highest seq of %s has %d bytes", ErrCorrupt, stream, len(v))
			}
			h = seqOf(v)
			return nil
		})
	})
	if err != nil {
		return 0, fmt.Errorf("highest seq of %s: %w", stream, err)
	}
	return h, nil
}

// loadLow returns the stream's retention mark (0: nothing deleted).
func (s *BadgerStore) loadLow(stream string) (uint64, error) {
	var low uint64
	err := s.db.View(func(txn *badger.Txn) error {
		var err error
		low, err = getSeq(txn, lowKey(stream))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("retention mark of %s: %w", stream, err)
	}
	return low, nil
}

// deleteChunk bounds the keys deleted by one write op.
const deleteChunk = 10_000

// DeleteUpTo implements Journal.
func (s *BadgerStore) DeleteUpTo(ctx context.Context, stream string, upTo uint64) error {
	if err := validateStream(stream); err != nil {
		return err
	}
	if err := s.usable(); err != nil {
		return err
	}
	if err := s.purgeArchive(ctx, stream, upTo); err != nil {
		return err
	}
	keys, err := s.keysInRange(kindEvent, stream, 1, upTo)
	if err != nil {
		return fmt.Errorf("delete %s up to %d: %w", stream, upTo, err)
	}
	if len(keys) == 0 {
		return nil
	}
	// The retention mark goes with the first deletion: from then on the
	// missing head is by design, not a gap.
	low := seqOf(keys[len(keys)-1])
	return s.deleteKeysMarked(ctx, stream, keys, low)
}

func (s *BadgerStore) deleteKeys(ctx context.Context, stream string, keys [][]byte) error {
	return s.deleteKeysMarked(ctx, stream, keys, 0)
}

// deleteKeysMarked deletes keys in chunks; low, when set, raises the
// stream's retention mark in the first chunk's write.
func (s *BadgerStore) deleteKeysMarked(ctx context.Context, stream string, keys [][]byte, low uint64) error {
	for len(keys) > 0 {
		n := min(len(keys), deleteChunk)
		if err := s.submit(ctx, &writeOp{stream: stream, deletes: keys[:n], low: low}); err != nil {
			return err
		}
		keys, low = keys[n:], 0
	}
	return nil
}

// keysInRange lists the keys of kind for stream with from <= seq <= to.
func (s *BadgerStore) keysInRange(kind byte, stream string, from, to uint64) ([][]byte, error) {
	var keys [][]byte
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: streamPrefix(kind, stream)})
		defer it.Close()
		for it.Seek(seqKey(kind, stream, from)); it.Valid(); it.Next() {
			if seqOf(it.Item().Key()) > to {
				break
			}
			keys = append(keys, it.Item().KeyCopy(nil))
		}
		return nil
	})
	return keys, err
}

// Streams implements Journal.
func (s *BadgerStore) Streams(context.Context) ([]string, error) {
	if err := s.usable(); err != nil {
		return nil, err
	}
	var out []string
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kindHighest}})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			out = append(out, string(it.Item().Key()[1:]))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list streams: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

// Subscribe implements Journal.
func (s *BadgerStore) Subscribe(stream string) *Subscription { return s.hub.add(stream) }

// Health implements Store.
func (s *BadgerStore) Health() Health {
	var full string
	if err := s.diskFull(); err != nil {
		full = err.Error()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h := Health{
		DroppedTails:     append([]DroppedRecord(nil), s.dropped...),
		Lost:             append([]LostRange(nil), s.lost...),
		TornWAL:          append([]TornWAL(nil), s.torn...),
		Notes:            append([]string(nil), s.notes...),
		SkippedSnapshots: int(s.skippedSnapshots.Load()),
		DiskFull:         full,
	}
	for _, q := range s.quarantines {
		h.Quarantined = append(h.Quarantined, q)
	}
	sort.Slice(h.Quarantined, func(i, j int) bool { return h.Quarantined[i].Stream < h.Quarantined[j].Stream })
	if s.failed != nil {
		h.Failed = s.failed.Error()
	}
	return h
}

// fail records the first storage failure; every later write and read
// returns it until the store is reopened. It returns the error to report.
func (s *BadgerStore) fail(err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed == nil {
		s.failed = err
		s.log.Error("journal store failed; reopen required", "dir", s.opts.Dir, "error", err.Error())
	}
	return fmt.Errorf("%w: %v", ErrFailed, s.failed)
}

func (s *BadgerStore) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed != nil {
		return fmt.Errorf("%w: %v", ErrFailed, s.failed)
	}
	return nil
}

// gcLoop runs value-log GC every GCInterval until Close.
func (s *BadgerStore) gcLoop() {
	defer s.wg.Done()
	t := time.NewTicker(s.opts.GCInterval)
	defer t.Stop()
	for {
		select {
		case <-s.stopGC:
			return
		case <-t.C:
			s.runGC()
		}
	}
}

// runGC rewrites value-log files that are at least half garbage, a few at
// a time, holding commitMu so its writes never split a commit from its sync.
func (s *BadgerStore) runGC() {
	for range 4 {
		s.commitMu.Lock()
		err := s.syncPending() // GC's writes may start a new memtable
		if err == nil {
			err = s.db.RunValueLogGC(0.5)
			if err == nil { // it rewrote a file
				s.afterOutsideWrite(false)
			}
		}
		s.commitMu.Unlock()
		if err != nil {
			return
		}
	}
}

// badgerLogger routes Badger's logs to slog: errors and warnings as such,
// its chatty info as debug, its debug dropped.
type badgerLogger struct{ l *slog.Logger }

func (b badgerLogger) Errorf(f string, a ...any) {
	b.l.Error(trim(fmt.Sprintf(f, a...)), "component", "badger")
}
func (b badgerLogger) Warningf(f string, a ...any) {
	b.l.Warn(trim(fmt.Sprintf(f, a...)), "component", "badger")
}
func (b badgerLogger) Infof(f string, a ...any) {
	b.l.Debug(trim(fmt.Sprintf(f, a...)), "component", "badger")
}
func (b badgerLogger) Debugf(string, ...any) {}

func trim(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == ' ') {
		s = s[:len(s)-1]
	}
	return s
}
