package persistence

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// Header is a small record a stream's writer keeps beside its journal: what
// it knew of the stream once the events up to Seq were applied (for an
// agent: its open facts and its listing). A header is a cache of the
// journal, never the truth: a reader trusts it only while Seq is the
// stream's HighestSeq, and otherwise reads the journal.
type Header struct {
	Seq  uint64
	Data []byte
	// Due is when the stream's writer must act again with nobody writing
	// to it (its next timer), zero for never. A store that indexes it
	// (PostgreSQL) lets a scanner wake writers that are active nowhere; the
	// Badger store does not keep it.
	Due time.Time
}

// HeaderStore is an optional ability of a Store (check it with a type
// assertion): one current Header per stream, so that boot recovery and
// listings need not replay a stream to learn what its header says. A store
// without it is read the long way.
type HeaderStore interface {
	// PublishHeader records h as stream's header, replacing the previous
	// one, without waiting for it to be durable: it is written after every
	// write queued before it and becomes durable with the next sync, never
	// before them. Publish a header only once the append of the events up
	// to h.Seq returned (a deferred one too: order is kept); then a header
	// a crash kept never names a seq the journal lost, and one a crash
	// lost only costs a replay.
	PublishHeader(stream string, h Header) error

	// LoadHeader returns stream's header; ok is false when it has none or
	// its header cannot be read (a reader then falls back to the journal).
	LoadHeader(ctx context.Context, stream string) (h Header, ok bool, err error)
}

// headerKey is the key of stream's header (see badger_keys.go).
func headerKey(stream string) []byte { return append([]byte{kindHeader}, stream...) }

// encodeHeader frames h: seq (8 bytes), CRC-32C of seq and data (4), data.
func encodeHeader(h Header) []byte {
	out := make([]byte, 12, 12+len(h.Data))
	binary.BigEndian.PutUint64(out, h.Seq)
	out = append(out, h.Data...)
	sum := crc32.Update(crc32.Checksum(out[:8], castagnoli), castagnoli, out[12:])
	binary.BigEndian.PutUint32(out[8:12], sum)
	return out
}

// errBadHeader is returned by decodeHeader for a header that fails its
// checksum or is too short.
var errBadHeader = errors.New("persistence: unreadable stream header")

func decodeHeader(v []byte) (Header, error) {
	if len(v) < 12 {
		return Header{}, errBadHeader
	}
	sum := crc32.Update(crc32.Checksum(v[:8], castagnoli), castagnoli, v[12:])
	if sum != binary.BigEndian.Uint32(v[8:12]) {
		return Header{}, errBadHeader
	}
	return Header{Seq: binary.BigEndian.Uint64(v), Data: append([]byte(nil), v[12:]...)}, nil
}

// PublishHeader implements HeaderStore. The write joins the committer's
// next cycle and needs no sync of its own (see writeOp.lazy).
func (s *BadgerStore) PublishHeader(stream string, h Header) error {
	if err := validateStream(stream); err != nil {
		return err
	}
	op := &writeOp{stream: stream, sets: []kv{{headerKey(stream), encodeHeader(h)}}, lazy: true}
	s.gate.RLock()
	defer s.gate.RUnlock()
	if s.closed {
		return ErrClosed
	}
	s.ops <- op // answered by the committer; nobody waits for it
	return nil
}

// LoadHeader implements HeaderStore.
func (s *BadgerStore) LoadHeader(_ context.Context, stream string) (Header, bool, error) {
	if err := s.readable(stream); err != nil {
		return Header{}, false, err
	}
	var h Header
	var ok bool
	err := s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(headerKey(stream))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) error {
			var derr error
			h, derr = decodeHeader(v)
			ok = derr == nil
			return nil
		})
	})
	if err != nil {
		return Header{}, false, fmt.Errorf("load header of %s: %w", stream, err)
	}
	return h, ok, nil
}
