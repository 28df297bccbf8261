package pgjournal

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// noFence is the after of an Append: "wherever the stream is".
const noFence = ^uint64(0)

// appendReq is one Append or AppendAfter waiting for its committer.
type appendReq struct {
	ctx    context.Context
	stream string
	after  uint64 // noFence for Append
	bodies [][]byte
	size   int
	// done receives the result once; buffered so the committer never
	// waits for a caller that gave up.
	done chan appendResult
	// tries counts the commits an Append lost to another writer of its
	// stream; see maxTries.
	tries int
}

type appendResult struct {
	first uint64
	err   error
}

// Append implements persistence.Journal.
func (s *Store) Append(ctx context.Context, stream string, events []messages.Event) (uint64, error) {
	return s.append(ctx, stream, noFence, events)
}

// AppendAfter implements persistence.Journal: the events are written only
// while the stream's highest seq is still after, in the same statement
// that moves it.
func (s *Store) AppendAfter(ctx context.Context, stream string, after uint64, events []messages.Event) (uint64, error) {
	return s.append(ctx, stream, after, events)
}

func (s *Store) append(ctx context.Context, stream string, after uint64, events []messages.Event) (uint64, error) {
	bodies, err := persistence.EncodeBatch(stream, s.redact(events))
	if err != nil {
		return 0, err
	}
	size := 0
	for _, b := range bodies {
		size += len(b)
	}
	if size > s.cfg.MaxBatchBytes {
		return 0, fmt.Errorf("append %d events (%d bytes) to %s: over the %d-byte limit: %w", len(events), size, stream, s.cfg.MaxBatchBytes, persistence.ErrBatchTooLarge)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	req := &appendReq{ctx: ctx, stream: stream, after: after, bodies: bodies, size: size, done: make(chan appendResult, 1)}
	if err := s.queue(req); err != nil {
		return 0, err
	}
	select {
	case r := <-req.done:
		return r.first, r.err
	case <-ctx.Done():
		// The append may still commit, as if the process had died here:
		// it is not acknowledged, so no caller counts on it.
		return 0, ctx.Err()
	}
}

// queue hands req to its stream's committer unless the store is closed.
func (s *Store) queue(req *appendReq) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return persistence.ErrClosed
	}
	s.committerOf(req.stream).in <- req
	return nil
}

// redact returns events with Config.Redact applied to each payload; the
// caller's slice is not changed.
func (s *Store) redact(events []messages.Event) []messages.Event {
	if s.cfg.Redact == nil {
		return events
	}
	out := make([]messages.Event, len(events))
	for i, ev := range events {
		ev.Payload = s.cfg.Redact(ev.Payload)
		out[i] = ev
	}
	return out
}
