package persistence

import (
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// The store kit: what a Store implemented in another package (a database
// journal) needs to behave like the Badger store down to the bytes. Such a
// store keeps the same sealed records, so every record carries its CRC-32C
// and sequence number whatever the engine does to it.

// EncodeBatch checks an append request (stream name, non-empty batch,
// every event valid and of this stream) and encodes each event's body.
// Nothing is stored; seal each body with SealRecord once its seq is known.
func EncodeBatch(stream string, events []messages.Event) ([][]byte, error) {
	bodies, err := encodeBatch(stream, events)
	for i, rec := range bodies {
		bodies[i] = rec[recordHeaderLen:]
	}
	return bodies, err
}

// SealRecord returns the journal record of body at seq: the format byte,
// the checksum, seq and body. DecodeRecord reads it back.
func SealRecord(seq uint64, body []byte) []byte { return sealRecord(seq, body) }

// ValidateStream returns an error wrapping ErrInvalidStream for an empty,
// oversized or malformed stream name.
func ValidateStream(stream string) error { return validateStream(stream) }

// EncodeSnapshot returns the sealed record of s (seq, timestamp and data
// under a checksum); DecodeSnapshot reads it back.
func EncodeSnapshot(s Snapshot) []byte { return encodeSnapshot(s) }

// DecodeSnapshot decodes the snapshot record of stream stored under seq.
// Errors wrap ErrCorrupt or ErrUnsupportedRecord.
func DecodeSnapshot(stream string, seq uint64, rec []byte) (Snapshot, error) {
	return decodeSnapshot(stream, seq, rec)
}

// MaxSeqBound is c's inclusive upper bound on Seq (math.MaxUint64 when
// there is none).
func (c SnapshotCriteria) MaxSeqBound() uint64 { return c.maxSeq() }

// Matches reports whether a snapshot at seq taken at ts meets c.
func (c SnapshotCriteria) Matches(seq uint64, ts time.Time) bool { return c.matches(seq, ts) }

// Notifier fans out append signals to subscriptions, per stream; a Store
// returns its Subscribe from it. The zero Notifier is ready to use and
// safe for concurrent use.
type Notifier struct{ hub notifier }

// Subscribe returns a subscription to stream's signals.
func (n *Notifier) Subscribe(stream string) *Subscription { return n.hub.add(stream) }

// Notify signals every subscription of stream; it never blocks.
func (n *Notifier) Notify(stream string) { n.hub.notify(stream) }

// NotifyAll signals every subscription, as after a gap in which signals
// may have been missed.
func (n *Notifier) NotifyAll() {
	n.hub.mu.Lock()
	streams := make([]string, 0, len(n.hub.subs))
	for s := range n.hub.subs {
		streams = append(streams, s)
	}
	n.hub.mu.Unlock()
	for _, s := range streams {
		n.hub.notify(s)
	}
}
