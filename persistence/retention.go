package persistence

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// RetainUpTo returns the highest seq of stream that policy p lets leave the
// journal at now, or 0 when nothing may: the newest snapshot covers it, at
// least p.KeepEvents events follow it, and it (with every event before it)
// is older than p.MaxAge. Events are assumed to be in time order, as
// appends make them; the age bound is found by binary search, reading one
// event per probe.
func RetainUpTo(ctx context.Context, st Store, stream string, p messages.RetentionPolicy, now time.Time) (uint64, error) {
	if p.Mode == messages.RetentionKeep || p.Mode == "" {
		return 0, nil
	}
	snap, ok, err := st.LoadSnapshot(ctx, stream, LatestSnapshot())
	if err != nil || !ok {
		return 0, err
	}
	limit := snap.Seq
	if p.KeepEvents > 0 {
		high, err := st.HighestSeq(ctx, stream)
		if err != nil || high <= p.KeepEvents {
			return 0, err
		}
		limit = min(limit, high-p.KeepEvents)
	}
	start := uint64(1)
	if a, ok := st.(Archiver); ok {
		if start, err = a.RetainedFrom(ctx, stream); err != nil {
			return 0, err
		}
	}
	if limit < start {
		return 0, nil
	}
	if p.MaxAge <= 0 {
		return limit, nil
	}
	return lastOlderThan(ctx, st, stream, start, limit, now.Add(-p.MaxAge))
}

// lastOlderThan returns the highest seq in start..limit whose event is
// older than cutoff (0 when none is).
func lastOlderThan(ctx context.Context, st Store, stream string, start, limit uint64, cutoff time.Time) (uint64, error) {
	lo, hi := start-1, limit // lo: known old enough (or start-1); answer in lo..hi
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		evs, err := st.ReadPage(ctx, stream, mid, hi, 1, 0)
		if err != nil {
			return 0, err
		}
		if len(evs) == 0 || !evs[0].At.Before(cutoff) {
			hi = mid - 1
			continue
		}
		lo = evs[0].Seq
	}
	if lo < start {
		return 0, nil
	}
	return lo, nil
}

// RetentionResult is what retention did to one stream.
type RetentionResult struct {
	Stream string                 `json:"stream"`
	Mode   messages.RetentionMode `json:"mode"`
	// UpTo is the highest seq that left the journal this pass.
	UpTo uint64 `json:"up_to"`
	// Archived counts the events moved into archive segments.
	Archived int `json:"archived,omitempty"`
}

// ApplyRetention applies p to stream at now: the events RetainUpTo allows
// are archived (p.Mode archive) or deleted (drop). A store that cannot
// archive (no Archiver) keeps them: archive never falls back to deleting.
// It returns a zero UpTo when nothing left the journal.
func ApplyRetention(ctx context.Context, st Store, stream string, p messages.RetentionPolicy, now time.Time) (RetentionResult, error) {
	res := RetentionResult{Stream: stream, Mode: p.Mode}
	if _, ok := st.(Archiver); !ok && p.Mode == messages.RetentionArchive {
		return res, nil
	}
	upTo, err := RetainUpTo(ctx, st, stream, p, now)
	if err != nil || upTo == 0 {
		return res, err
	}
	switch p.Mode {
	case messages.RetentionArchive:
		res.Archived, err = st.(Archiver).ArchiveUpTo(ctx, stream, upTo)
	case messages.RetentionDrop:
		err = st.DeleteUpTo(ctx, stream, upTo)
	}
	if err != nil {
		return res, fmt.Errorf("retention of %s up to %d: %w", stream, upTo, err)
	}
	res.UpTo = upTo
	return res, nil
}

// Retention applies each stream's retention policy to a store, on a
// schedule its owner gives it (Run), never on an append's path.
type Retention struct {
	Store    Store
	Policies messages.RetentionPolicies
	// Log receives a line per pass that moved something, and the streams
	// that failed. Nil means slog.Default().
	Log *slog.Logger
}

// RunOnce applies retention to every stream at now and returns what
// moved. A stream that fails does not stop the others; their errors are
// joined.
func (r *Retention) RunOnce(ctx context.Context, now time.Time) ([]RetentionResult, error) {
	streams, err := r.Store.Streams(ctx)
	if err != nil {
		return nil, fmt.Errorf("retention: %w", err)
	}
	var out []RetentionResult
	var errs []error
	for _, stream := range streams {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		res, err := ApplyRetention(ctx, r.Store, stream, r.Policies.For(stream), now)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if res.UpTo > 0 {
			out = append(out, res)
		}
	}
	if len(out) > 0 {
		switch st := r.Store.(type) {
		case interface{ Reclaim() error }: // badger_reclaim.go
			if err := st.Reclaim(); err != nil {
				errs = append(errs, fmt.Errorf("retention: %w", err))
			}
		case interface{ CollectGarbage() }:
			st.CollectGarbage()
		}
	}
	return out, errors.Join(errs...)
}

// Run applies retention at every tick until ctx ends, each pass at the
// tick's time; its owner supplies the ticks (a clock's ticker) and waits
// for Run to return.
func (r *Retention) Run(ctx context.Context, ticks <-chan time.Time) {
	log := r.Log
	if log == nil {
		log = slog.Default()
	}
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-ticks:
			res, err := r.RunOnce(ctx, now)
			if err != nil && ctx.Err() == nil {
				log.Warn("journal retention failed for some streams", "error", err)
			}
			if len(res) > 0 {
				log.Info("journal retention pass", "streams", len(res))
			}
		}
	}
}
