package persistence

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/dgraph-io/badger/v4"
)

// StreamHead is what a listing needs of one stream: its highest seq and its
// header (HasHeader false when it has none or it cannot be read). The
// header is current only while Header.Seq == Highest.
type StreamHead struct {
	Stream    string
	Highest   uint64
	Header    Header
	HasHeader bool
}

// HeadLister is an optional ability of a HeaderStore (check it with a type
// assertion): every stream's head in one read, so that a listing of a
// thousand agents costs two key-range scans instead of two lookups per
// agent.
type HeadLister interface {
	// StreamHeads returns every stream's head, sorted by stream: the
	// streams Streams lists.
	StreamHeads(ctx context.Context) ([]StreamHead, error)
}

// ErrNoHeadLister is returned by a wrapper's StreamHeads when the store it
// wraps cannot list heads: read stream by stream instead.
var ErrNoHeadLister = errors.New("persistence: the store lists no stream heads")

// StreamHeads implements HeadLister: the highest-seq keys and the header
// keys are each one contiguous range (badger_keys.go), scanned in one
// read transaction, so the seqs and headers agree with each other. The
// iterators prefetch no values: Badger fetches each prefetched value in a
// goroutine of its own, and these values (8 bytes, a header far below
// the 1 MiB value threshold) are stored with their keys (the scan of
// 1,000 streams took 2.4-4.2 ms with prefetching, 0.8-1.4 ms without).
func (s *BadgerStore) StreamHeads(context.Context) ([]StreamHead, error) {
	if err := s.usable(); err != nil {
		return nil, err
	}
	var out []StreamHead
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kindHighest}})
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			h := StreamHead{Stream: string(item.Key()[1:])}
			err := item.Value(func(v []byte) error {
				if len(v) != 8 {
					return fmt.Errorf("%w: highest seq of %s has %d bytes", ErrCorrupt, h.Stream, len(v))
				}
				h.Highest = seqOf(v)
				return nil
			})
			if err != nil {
				it.Close()
				return err
			}
			out = append(out, h)
		}
		it.Close()
		sort.Slice(out, func(i, j int) bool { return out[i].Stream < out[j].Stream })
		it = txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kindHeader}})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			stream := string(it.Item().Key()[1:])
			i := sort.Search(len(out), func(i int) bool { return out[i].Stream >= stream })
			if i == len(out) || out[i].Stream != stream {
				continue // a header without a journal: nothing lists it
			}
			_ = it.Item().Value(func(v []byte) error {
				h, err := decodeHeader(v)
				out[i].Header, out[i].HasHeader = h, err == nil
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list stream heads: %w", err)
	}
	return out, nil
}
