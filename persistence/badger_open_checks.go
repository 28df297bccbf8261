package persistence

import (
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
// other. And a stream's newest event, read and decoded by the tail check,
// is not looked up a second time by the ends check (tailChecked).

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
