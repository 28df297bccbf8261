package persistence

import (
	"context"
	"errors"
	"expvar"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// TestOpenReadsEachStreamsNewestEventOnce: a start checks every stream's
// tail and its ends against the integrity marks; the newest event, which
// the tail check reads whole, is not looked up again, and the highest seqs
// and retention marks are scanned, not looked up. Per stream that is the
// newest event and the first: two lookups (five before).
func TestOpenReadsEachStreamsNewestEventOnce(t *testing.T) {
	const streams = 300
	dir := t.TempDir()
	s, err := Open(testBadgerOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	for i := range streams {
		stream := fmt.Sprintf("agent-%04d", i)
		if _, err := s.Append(context.Background(), stream, testEvents(stream, 1, 3)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	gets := expvar.Get("badger_get_num_user").(*expvar.Int)
	before := gets.Value()
	s = openBadger(t, testBadgerOptions(dir))
	if n := gets.Value() - before; n > 2*streams+20 {
		t.Errorf("Open looked up %d keys for %d streams, want at most %d", n, streams, 2*streams+20)
	}
	if h := s.Health(); len(h.Lost) > 0 || len(h.DroppedTails) > 0 {
		t.Errorf("health after a clean reopen = %+v, want nothing lost or dropped", h)
	}
}

// TestEachStreamPart: every index is checked once, over as many parts as
// the cores allow, and an error of any part is returned.
func TestEachStreamPart(t *testing.T) {
	s := openBadger(t, testBadgerOptions(t.TempDir()))
	for _, n := range []int{0, 1, 511, 1024, 5000} {
		seen := make([]atomic.Int32, n)
		if err := eachStreamPart(s.db, n, func(_ *badger.Txn, i int) error { seen[i].Add(1); return nil }); err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d checked %d times, want 1", n, i, c)
			}
		}
	}
	boom := errors.New("boom")
	err := eachStreamPart(s.db, 5000, func(_ *badger.Txn, i int) error {
		if i == 4999 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Errorf("eachStreamPart = %v, want the last part's error", err)
	}
}
