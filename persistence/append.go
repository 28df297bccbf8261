package persistence

import (
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
)

// encodeBatch checks an append request and encodes each event's record in
// the caller's goroutine, its header left for the writer to seal
// (sealRecordInPlace). The records share one allocation, each capped at
// its end. Nothing is written when it fails.
func encodeBatch(stream string, events []messages.Event) ([][]byte, error) {
	if err := validateStream(stream); err != nil {
		return nil, err
	}
	if len(events) == 0 {
		return nil, fmt.Errorf("append to %s: %w", stream, ErrEmptyBatch)
	}
	n := 0
	for i, ev := range events {
		if err := checkEvent(stream, ev); err != nil {
			return nil, fmt.Errorf("append to %s: event %d: %w", stream, i, err)
		}
		n += maxRecordLen(ev)
	}
	buf := make([]byte, 0, n)
	recs := make([][]byte, len(events))
	for i, ev := range events {
		rec := appendEventRecord(buf[len(buf):], ev)
		recs[i] = rec[:len(rec):len(rec)]
		buf = buf[:len(buf)+len(rec)]
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
