package persistence

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// Group commit. Every write (appends from many streams, snapshot saves,
// deletions, quarantine records) is a writeOp sent to one committer
// goroutine. It takes every op waiting, packs them into as few Badger
// transactions as fit, commits each and then calls DB.Sync once for all of
// them, and only then answers the callers. One sync covers many agents'
// appends: that is where durable throughput comes from (one synced
// transaction per event managed ~1.9k events/s on this hardware).
//
// Because the committer is the only writer, sequence numbers are assigned
// here without conflicts, and no memtable rotation can happen between a
// commit and its sync (DB.Sync covers only the active memtable's WAL).

// maxOpsPerCycle bounds how many ops one cycle answers at once, so the
// first caller in a burst does not wait behind an unbounded batch.
const maxOpsPerCycle = 1024

// writeOp is one atomic unit of writes: all of it lands or none.
type writeOp struct {
	stream string

	// An append: the events' records (encodeBatch), sealed in place at
	// highest+1.. unless the fence fails; sealed again only once the
	// transaction that held them is discarded (a batch too big for it).
	recs  [][]byte
	after uint64

	// Any other write: keys set or deleted verbatim.
	sets    []kv
	deletes [][]byte
	// quarantine, when set, is recorded in memory after the commit.
	quarantine *Quarantine
	// low, when set, raises the stream's retention mark (DeleteUpTo).
	low uint64
	// lazy ops (stream headers, AppendDeferred) need no sync before they
	// are answered: a cycle of nothing but lazy ops may commit without
	// one, and they become durable with the next sync (badger_deferred.go).
	lazy bool

	first uint64        // result of an append
	err   error         // result
	done  chan struct{} // closed by the committer once err and first are set; nil when nobody waits
}

type kv struct{ key, value []byte }

func (op *writeOp) isAppend() bool { return op.recs != nil }

// commitLoop is the committer goroutine. It ends when s.ops is closed and
// drained.
func (s *BadgerStore) commitLoop() {
	defer s.wg.Done()
	batch := make([]*writeOp, 0, maxOpsPerCycle)
	idle := time.NewTimer(time.Hour)
	idle.Stop()
	for {
		op, ok := s.nextOp(idle)
		if !ok {
			break
		}
		batch = append(batch[:0], op)
	drain:
		for len(batch) < maxOpsPerCycle {
			select {
			case next, ok := <-s.ops:
				if !ok {
					break drain
				}
				batch = append(batch, next)
			default:
				break drain
			}
		}
		s.commitCycle(batch)
	}
	s.commitMu.Lock()
	if err := s.syncPending(); err != nil {
		s.log.Error("journal store: the last lazy writes were not synced", "error", err.Error())
	}
	s.commitMu.Unlock()
}

// nextOp waits for the next op; false once s.ops is closed and drained.
// With lazy writes unsynced, it syncs them when none comes within
// DeferredSyncAfter (idle is the committer's timer, stopped).
func (s *BadgerStore) nextOp(idle *time.Timer) (*writeOp, bool) {
	s.commitMu.Lock() // outside writers may sync the pending writes
	pending := s.pending
	s.commitMu.Unlock()
	if !pending {
		op, ok := <-s.ops
		return op, ok
	}
	idle.Reset(s.opts.DeferredSyncAfter)
	defer idle.Stop()
	select {
	case op, ok := <-s.ops:
		return op, ok
	case <-idle.C:
	}
	s.commitMu.Lock()
	_ = s.syncPending() // a failure fails the store: the next op hears of it
	s.commitMu.Unlock()
	op, ok := <-s.ops
	return op, ok
}

// txnGroup is the ops of one Badger transaction and the highest sequence
// numbers they would leave behind.
type txnGroup struct {
	txn     *badger.Txn
	ops     []*writeOp
	entries [][]kv // per op, parallel to ops, to rebuild the txn if needed
	dels    [][][]byte
	highest map[string]uint64
	low     map[string]uint64 // retention marks raised
}

func (s *BadgerStore) commitCycle(batch []*writeOp) {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	full := s.diskFull()
	g := s.newGroup(len(batch))
	for i, op := range batch {
		if err := s.failure(); err != nil {
			op.err = err
			continue
		}
		if full != nil && !isDeleteOnly(op) && op.quarantine == nil {
			op.err = fmt.Errorf("write to %s: %w", op.stream, full)
			continue
		}
		if s.addOp(g, op) {
			continue
		}
		// The transaction is full: commit what fits, then start again.
		s.finishGroup(g)
		g = s.newGroup(len(batch) - i)
		if err := s.failure(); err != nil {
			op.err = err
			continue
		}
		if !s.addOp(g, op) {
			op.err = fmt.Errorf("write to %s: %w", op.stream, ErrBatchTooLarge)
		}
	}
	s.finishGroup(g)
	for _, op := range batch {
		if op.done != nil { // nil for an op nobody waits for (a stream header)
			close(op.done)
		}
	}
}

// newGroup starts a group sized for n ops; its low marks are made when
// first raised.
func (s *BadgerStore) newGroup(n int) *txnGroup {
	return &txnGroup{txn: s.db.NewTransaction(true), ops: make([]*writeOp, 0, n), entries: make([][]kv, 0, n),
		dels: make([][][]byte, 0, n), highest: make(map[string]uint64, n)}
}

// addOp prepares op's writes and adds them to g's transaction. It returns
// false, leaving g as it was, when they do not fit; op.err is set when the op
// is refused for its own reasons (fence, quarantine).
func (s *BadgerStore) addOp(g *txnGroup, op *writeOp) bool {
	sets, first, err := s.prepare(g, op)
	if err != nil {
		op.err = err
		return true
	}
	if err := addEntries(g.txn, sets, op.deletes); err != nil {
		// Part of op may be in the transaction: rebuild it from the ops
		// that fit, so a refused op leaves nothing behind.
		s.rebuild(g)
		if errors.Is(err, badger.ErrTxnTooBig) {
			return false
		}
		op.err = fmt.Errorf("write to %s: %w", op.stream, err)
		return true
	}
	if op.isAppend() {
		op.first = first
		g.highest[op.stream] = first + uint64(len(op.recs)) - 1
	}
	g.ops = append(g.ops, op)
	g.entries = append(g.entries, sets)
	g.dels = append(g.dels, op.deletes)
	return true
}

// prepare returns the keys op sets; for an append it assigns the sequence
// numbers after the stream's current highest.
func (s *BadgerStore) prepare(g *txnGroup, op *writeOp) ([]kv, uint64, error) {
	if q, ok := s.quarantined(op.stream); ok && op.quarantine == nil && !isDeleteOnly(op) {
		return nil, 0, fmt.Errorf("write to %s: %w at seq %d: %s", op.stream, ErrQuarantined, q.Seq, q.Reason)
	}
	if err := s.checkValueSizes(op); err != nil {
		return nil, 0, err
	}
	if !op.isAppend() {
		if op.low == 0 {
			return op.sets, 0, nil
		}
		return s.withLow(g, op)
	}
	highest, ok := g.highest[op.stream]
	if !ok {
		var err error
		if highest, err = s.cachedHighest(op.stream); err != nil {
			return nil, 0, err
		}
	}
	if err := checkFence(op.stream, highest, op.after); err != nil {
		return nil, 0, err
	}
	sets := make([]kv, 0, len(op.recs)+1)
	// The op's keys and the highest seq's value share one allocation, each
	// capped at its end.
	keys := make([]byte, 0, len(op.recs)*seqKeyLen(op.stream)+1+len(op.stream)+8)
	carve := func(b []byte) []byte {
		keys = keys[:len(keys)+len(b)]
		return b[:len(b):len(b)]
	}
	for i, rec := range op.recs {
		seq := highest + 1 + uint64(i)
		sets = append(sets, kv{carve(appendSeqKey(keys[len(keys):], kindEvent, op.stream, seq)), sealRecordInPlace(seq, rec)})
	}
	last := highest + uint64(len(op.recs))
	hk := carve(appendHighestKey(keys[len(keys):], op.stream))
	sets = append(sets, kv{hk, carve(binary.BigEndian.AppendUint64(keys[len(keys):], last))})
	return sets, highest + 1, nil
}

// withLow adds the raised retention mark to op's sets; a mark never goes
// down.
func (s *BadgerStore) withLow(g *txnGroup, op *writeOp) ([]kv, uint64, error) {
	low, ok := g.low[op.stream]
	if !ok {
		var err error
		if low, err = s.loadLow(op.stream); err != nil {
			return nil, 0, err
		}
	}
	if op.low <= low {
		return op.sets, 0, nil
	}
	if g.low == nil {
		g.low = map[string]uint64{}
	}
	g.low[op.stream] = op.low
	return append(slices.Clone(op.sets), kv{lowKey(op.stream), encodeSeq(op.low)}), 0, nil
}

// checkValueSizes refuses an op with a value Badger could not store (one
// over the value-log file size) before it touches the transaction, with a
// short error instead of Badger's, which dumps the value.
func (s *BadgerStore) checkValueSizes(op *writeOp) error {
	limit := int(s.opts.ValueLogFileSize) - recordHeaderLen - 64
	for _, rec := range op.recs {
		if n := len(rec) - recordHeaderLen; n > limit {
			return fmt.Errorf("write to %s: an event of %d bytes exceeds %d: %w", op.stream, n, limit, ErrBatchTooLarge)
		}
	}
	for _, e := range op.sets {
		if len(e.value) > limit {
			return fmt.Errorf("write to %s: a value of %d bytes exceeds %d: %w", op.stream, len(e.value), limit, ErrBatchTooLarge)
		}
	}
	return nil
}

func isDeleteOnly(op *writeOp) bool { return !op.isAppend() && len(op.sets) == 0 }

func addEntries(txn *badger.Txn, sets []kv, deletes [][]byte) error {
	for _, e := range sets {
		if err := txn.Set(e.key, e.value); err != nil {
			return err
		}
	}
	for _, k := range deletes {
		if err := txn.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// rebuild replaces g's transaction, which may hold part of a refused op,
// with a fresh one holding exactly g's ops. They fitted before, so they fit.
func (s *BadgerStore) rebuild(g *txnGroup) {
	g.txn.Discard()
	g.txn = s.db.NewTransaction(true)
	for i := range g.ops {
		if err := addEntries(g.txn, g.entries[i], g.dels[i]); err != nil {
			s.fail(fmt.Errorf("rebuild transaction: %w", err))
			return
		}
	}
}

// finishGroup commits g, syncs, and records the results in g's ops.
func (s *BadgerStore) finishGroup(g *txnGroup) {
	defer g.txn.Discard()
	if len(g.ops) == 0 {
		return
	}
	err := s.failure()
	if err == nil {
		if cerr := g.txn.Commit(); cerr != nil {
			// A failed commit may have reached the memtable in part: stop
			// acknowledging anything until the store is reopened.
			err = s.fail(fmt.Errorf("commit: %w", cerr))
		}
	}
	if err == nil {
		if cerr := s.committed(g); cerr != nil {
			err = s.fail(cerr)
		}
	}
	deferred := false
	if err == nil {
		if allLazy(g.ops) && s.mayDefer() {
			s.deferMarks(g)
			deferred = true
		} else {
			err = s.syncWithMarks(g)
		}
	}
	if err != nil {
		for _, op := range g.ops {
			op.err = fmt.Errorf("write to %s: %w", op.stream, err)
		}
		return
	}
	for stream, h := range g.highest {
		s.highest[stream] = h
	}
	for _, op := range g.ops {
		if op.quarantine != nil {
			s.setQuarantined(*op.quarantine)
		}
		switch {
		case op.isAppend() && deferred:
			// Subscribers hear of deferred events once they are durable,
			// so none follows an event a power loss could take back.
			s.pendingNotify = append(s.pendingNotify, op.stream)
		case op.isAppend():
			s.hub.notify(op.stream)
		}
	}
}

// allLazy reports whether ops are all lazy: their cycle needs no sync.
func allLazy(ops []*writeOp) bool {
	for _, op := range ops {
		if !op.lazy {
			return false
		}
	}
	return true
}

// syncWithMarks makes g's commit (nil: none) and every lazy write before
// it durable: Badger's sync and, beside it, the append of the marks of
// the streams they changed to the marks log (badger_marks.go), both before
// any caller is answered. They run side by side, so the cycle waits for
// the slower of the two syncs rather than their sum (serially, durable
// throughput fell by about a third).
func (s *BadgerStore) syncWithMarks(g *txnGroup) error {
	changed := s.changedMarks(g)
	for stream, m := range s.pendingMarks {
		if _, ok := changed[stream]; !ok {
			if changed == nil {
				changed = make(map[string]streamMark, len(s.pendingMarks))
			}
			changed[stream] = m
		}
	}
	var merr error
	done := make(chan struct{})
	go func() { // owned by this cycle: joined below
		defer close(done)
		if s.marks != nil && len(changed) > 0 {
			merr = s.marks.append(changed, s.opts.NoSync)
		}
	}()
	var serr error
	if !s.opts.NoSync {
		serr = s.sync()
	}
	<-done
	switch {
	case serr != nil:
		return s.fail(fmt.Errorf("sync: %w", serr))
	case merr != nil:
		return s.fail(merr)
	}
	for stream, m := range changed {
		s.marksState[stream] = m
	}
	for _, stream := range s.pendingNotify {
		s.hub.notify(stream)
	}
	s.pending, s.pendingMarks, s.pendingNotify = false, nil, s.pendingNotify[:0]
	if s.marks != nil && s.marks.size > marksCompactAt {
		s.compactMarks()
	}
	return nil
}

// changedMarks returns the new marks of the streams g changes (nil g:
// none), over those of lazy writes not yet synced.
func (s *BadgerStore) changedMarks(g *txnGroup) map[string]streamMark {
	if g == nil || (len(g.highest) == 0 && len(g.low) == 0) {
		return nil
	}
	out := make(map[string]streamMark, len(g.highest)+len(g.low))
	for stream, h := range g.highest {
		m := s.markOf(stream)
		m.highest = h
		out[stream] = m
	}
	for stream, low := range g.low {
		m, ok := out[stream]
		if !ok {
			m = s.markOf(stream)
		}
		m.low = low
		out[stream] = m
	}
	return out
}

// markOf is stream's mark with the lazy writes not yet synced.
func (s *BadgerStore) markOf(stream string) streamMark {
	if m, ok := s.pendingMarks[stream]; ok {
		return m
	}
	return s.marksState[stream]
}

// deferMarks leaves g's commit unsynced: its marks wait for the sync that
// makes it durable, so the marks log never claims a write Badger may not
// keep (beyond the last cycle's, as always).
func (s *BadgerStore) deferMarks(g *txnGroup) {
	s.pending = true
	for stream, m := range s.changedMarks(g) {
		if s.pendingMarks == nil {
			s.pendingMarks = make(map[string]streamMark)
		}
		s.pendingMarks[stream] = m
	}
}

// compactMarks rewrites the marks log as one snapshot record. A failure
// keeps the old log, which stays correct, only longer.
func (s *BadgerStore) compactMarks() {
	l, err := writeMarksSnapshot(s.opts.Dir, s.marksState)
	if err != nil {
		s.log.Warn("integrity marks not compacted", "error", err.Error())
		return
	}
	_ = s.marks.close()
	s.marks = l
}

// cachedHighest returns the stream's highest seq, loading it once from disk.
// Only the committer calls it, so s.highest needs no lock.
func (s *BadgerStore) cachedHighest(stream string) (uint64, error) {
	if h, ok := s.highest[stream]; ok {
		return h, nil
	}
	h, err := s.loadHighest(stream)
	if err != nil {
		return 0, err
	}
	s.highest[stream] = h
	return h, nil
}

// diskFull returns an error wrapping ErrDiskFull when the file system has
// less than MinFreeBytes free. Failing to ask is not treated as full.
func (s *BadgerStore) diskFull() error {
	if s.opts.MinFreeBytes == 0 {
		return nil
	}
	free, err := s.freeBytes()
	if err != nil || free >= s.opts.MinFreeBytes {
		return nil
	}
	return fmt.Errorf("%w: %d bytes free in %s, %d needed: free space, then retry",
		ErrDiskFull, free, s.opts.Dir, s.opts.MinFreeBytes)
}
