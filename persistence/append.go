package persistence

import (
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
)

// encodeBatch checks an append request and encodes each event's record in
// the caller's goroutine, its header left for the writer to seal
// (sealRecordInPlace). Nothing is written when it fails.
func encodeBatch(stream string, events []messages.Event) ([][]byte, error) {
	if err := validateStream(stream); err != nil {
		return nil, err
	}
	if len(events) == 0 {
		return nil, fmt.Errorf("append to %s: %w", stream, ErrEmptyBatch)
	}
	recs := make([][]byte, len(events))
	for i, ev := range events {
		rec, err := encodeEventRecord(stream, ev)
		if err != nil {
			return nil, fmt.Errorf("append to %s: event %d: %w", stream, i, err)
		}
		recs[i] = rec
	}
	return recs, nil
}

// noFence is the AppendAfter value meaning "append wherever the stream is".
const noFence = ^uint64(0)

func checkFence(stream string, highest, after uint64) error {
	if after != noFence && highest != after {
		return fmt.Errorf("append to %s after seq %d: stream is at %d: %w", stream, after, highest, ErrSeqConflict)
	}
	return nil
}

// redactPayloads returns events with redact applied to each payload; the
// caller's slice is not changed. A nil redact returns events as they are.
func redactPayloads(events []messages.Event, redact func([]byte) []byte) []messages.Event {
	if redact == nil {
		return events
	}
	out := make([]messages.Event, len(events))
	for i, ev := range events {
		ev.Payload = redact(ev.Payload)
		out[i] = ev
	}
	return out
}
