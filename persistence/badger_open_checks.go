package persistence

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/dgraph-io/badger/v4"
)

// The checks Open makes of every stream (its tail records, badger_recovery.go;
// its ends against the integrity marks, badger_integrity.go) are point
// lookups, each mostly the engine decompressing and checksumming the block
// that holds the key: at 10,000 streams that was nearly all of a start
// after a graceful stop (≈ 330 ms of CPU in a 480 ms open). They read only,
// so the streams are split among the machine's cores, each part in a read
// transaction of its own, in key order so a part's lookups stay near each
// other. A stream's newest event, read and decoded by the tail check, is
// not looked up a second time by the ends check (tailChecked), and every
// stream's highest seq and retention mark are read in two key-range scans
// (scanBounds) instead of two lookups a stream.

// checkParts is how many parts the open checks split n streams into: one
// per core, none smaller than minCheckPart streams.
func checkParts(n int) int {
	const minCheckPart = 512
	return max(1, min(runtime.GOMAXPROCS(0), n/minCheckPart, 8))
}

// eachStreamPart calls check for every index of n streams, split into
// checkParts contiguous parts run side by side, each part in one read
// transaction of db. The first error is returned, after every part ended.
func eachStreamPart(db *badger.DB, n int, check func(txn *badger.Txn, i int) error) error {
	parts := checkParts(n)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*n/parts, (p+1)*n/parts
		wg.Go(func() { // owned by this call: joined below
			errs[p] = db.View(func(txn *badger.Txn) error {
				for i := lo; i < hi; i++ {
					if err := check(txn, i); err != nil {
						return err
					}
				}
				return nil
			})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// scanBounds reads every stream's highest seq and retention mark, each
// kind one contiguous key range (badger_keys.go), in one read transaction:
// what readBounds looks up stream by stream. A value that is not a seq is
// the error readBounds would give for that stream.
func (s *BadgerStore) scanBounds() (map[string]streamBounds, error) {
	out := map[string]streamBounds{}
	err := s.db.View(func(txn *badger.Txn) error {
		for _, kind := range []byte{kindHighest, kindLow} {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kind}, PrefetchValues: true, PrefetchSize: 256})
			for it.Rewind(); it.Valid(); it.Next() {
				key := it.Item().Key()
				stream := string(key[1:])
				err := it.Item().Value(func(v []byte) error {
					if len(v) != 8 {
						return fmt.Errorf("check integrity of %s: %w: key %q holds %d bytes, want 8", stream, ErrCorrupt, key, len(v))
					}
					b := out[stream]
					if kind == kindHighest {
						b.highest = seqOf(v)
					} else {
						b.low = seqOf(v)
					}
					out[stream] = b
					return nil
				})
				if err != nil {
					it.Close()
					return err
				}
			}
			it.Close()
		}
		return nil
	})
	return out, err
}
