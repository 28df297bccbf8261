package persistence

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// TestStreamHeaderRoundTrip: a published header is read back, replaced by
// the next one, and kept across a reopen once a synced write followed it;
// a stream without one, or with one that fails its checksum, has none.
func TestStreamHeaderRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(testBadgerOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	var _ HeaderStore = s
	mustAppend(t, s, "a", testEvents("a", 1, 3))
	for _, h := range []Header{{Seq: 2, Data: []byte("old")}, {Seq: 3, Data: []byte(`{"open_facts":null}`)}} {
		if err := s.PublishHeader("a", h); err != nil {
			t.Fatalf("PublishHeader(%d) = %v", h.Seq, err)
		}
	}
	mustAppend(t, s, "b", testEvents("b", 1, 1)) // the committer took the headers first
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openBadger(t, testBadgerOptions(dir))
	h, ok, err := s.LoadHeader(ctx, "a")
	if err != nil || !ok || h.Seq != 3 || string(h.Data) != `{"open_facts":null}` {
		t.Fatalf("LoadHeader(a) = %d %q, %t, %v; want 3, the second header", h.Seq, h.Data, ok, err)
	}
	if _, ok, err := s.LoadHeader(ctx, "b"); ok || err != nil {
		t.Fatalf("LoadHeader(b) = %t, %v; want none", ok, err)
	}
	bad := encodeHeader(Header{Seq: 3, Data: []byte("x")})
	bad[len(bad)-1] ^= 0xff
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(headerKey("a"), bad) }); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.LoadHeader(ctx, "a"); ok || err != nil {
		t.Fatalf("LoadHeader(a) with a damaged header = %t, %v; want none, no error", ok, err)
	}
}

// TestStreamHeaderNeedsNoSync: a commit cycle of nothing but headers does
// not sync; one with an append among them syncs once.
func TestStreamHeaderNeedsNoSync(t *testing.T) {
	s := openBadger(t, testBadgerOptions(t.TempDir()))
	var syncs atomic.Int64
	inner := s.sync
	s.commitMu.Lock() // s.sync is the committer's; swap it between cycles
	s.sync = func() error { syncs.Add(1); return inner() }
	s.commitMu.Unlock()
	header := func(seq uint64) *writeOp {
		return &writeOp{stream: "a", sets: []kv{{headerKey("a"), encodeHeader(Header{Seq: seq})}}, lazy: true,
			done: make(chan struct{})}
	}
	s.commitCycle([]*writeOp{header(1), header(2)})
	if n := syncs.Load(); n != 0 {
		t.Fatalf("a cycle of two headers synced %d times, want 0", n)
	}
	recs, err := encodeBatch("a", testEvents("a", 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	appendOp := &writeOp{stream: "a", recs: recs, after: noFence, done: make(chan struct{})}
	s.commitCycle([]*writeOp{header(3), appendOp})
	if n := syncs.Load(); n != 1 || appendOp.err != nil {
		t.Fatalf("a header and an append synced %d times (append: %v), want 1", n, appendOp.err)
	}
	if h, ok, err := s.LoadHeader(context.Background(), "a"); err != nil || !ok || h.Seq != 3 {
		t.Fatalf("LoadHeader(a) = %d, %t, %v; want the last header, 3", h.Seq, ok, err)
	}
}

// TestStreamHeaderAfterClose: publishing to a closed store is refused.
func TestStreamHeaderAfterClose(t *testing.T) {
	s, err := Open(testBadgerOptions(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.PublishHeader("a", Header{Seq: 1}); !errors.Is(err, ErrClosed) {
		t.Fatalf("PublishHeader after Close = %v, want ErrClosed", err)
	}
}
