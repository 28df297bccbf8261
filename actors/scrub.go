package actors

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/persistence"
)

// A start reads an agent's journal only after its newest snapshot, so
// damage in the history a snapshot covers is not seen by it. The scrub
// reads every stream's stored events in bounded pages, in the background:
// the store quarantines a stream at its first corrupt record or gap (as
// any read does), and the runtime contains that agent as a start-time
// quarantine does and tells the operator.

// Bounds of one scrub read: a page holds at most this many events or
// bytes, so a long journal never loads at once.
const (
	scrubPageEvents = 256
	scrubPageBytes  = 1 << 20
)

// scrubFound tells a live agent the scrub found its journal damaged.
type scrubFound struct{ err error }

// StartScrub starts the background integrity scrub: once now, then every
// interval. interval <= 0 starts nothing. The runtime owns it: halting
// cancels it and waits for it. A failed pass is logged and retried at the
// next interval.
func (r *Runtime) StartScrub(interval time.Duration) {
	if interval <= 0 {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	r.mu.Lock()
	if r.closed || r.scrubStop != nil {
		r.mu.Unlock()
		cancel()
		return
	}
	r.scrubStop = func() { cancel(); <-done }
	r.mu.Unlock()
	go func() {
		defer close(done)
		for {
			if _, err := r.Scrub(ctx); err != nil && ctx.Err() == nil {
				r.deps.Log.Error().Err(err).Msg("journal scrub failed; retried at the next interval")
			}
			select {
			case <-ctx.Done():
				return
			case <-r.deps.Clock.After(interval):
			}
		}
	}()
}

// stopScrub cancels the background scrub, if any, and waits for it.
func (r *Runtime) stopScrub() {
	r.mu.Lock()
	stop := r.scrubStop
	r.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Scrub reads every stream's stored events once, page by page, yielding
// between pages. A stream with a corrupt record or a gap is quarantined by
// the store; its agent is contained (not resumed, a live one refuses every
// request with ErrJournalQuarantined) and the operator is told. It returns
// the ids of the streams it quarantined, sorted.
func (r *Runtime) Scrub(ctx context.Context) ([]string, error) {
	streams, err := r.deps.Store.Streams(ctx)
	if err != nil {
		return nil, fmt.Errorf("scrub: %w", err)
	}
	var found []string
	for _, id := range streams {
		if _, bad := r.storeQuarantine(id); bad {
			continue // already contained and reported
		}
		err := r.scrubStream(ctx, id)
		switch {
		case errors.Is(err, persistence.ErrQuarantined):
			found = append(found, id)
			r.scrubContain(id, err)
		case err != nil:
			return found, fmt.Errorf("scrub %s: %w", id, err)
		}
		runtime.Gosched() // between streams, live work goes first
	}
	return found, nil
}

// scrubStream reads stream id's stored events in bounded pages.
func (r *Runtime) scrubStream(ctx context.Context, id string) error {
	high, err := r.deps.Store.HighestSeq(ctx, id)
	if err != nil {
		return err
	}
	for from := uint64(1); from <= high; {
		if err := ctx.Err(); err != nil {
			return err
		}
		page, err := r.deps.Store.ReadPage(ctx, id, from, high, scrubPageEvents, scrubPageBytes)
		if err != nil {
			return err
		}
		if len(page) == 0 {
			return nil // the rest was moved aside as a corrupt tail
		}
		from = page[len(page)-1].Seq + 1
		runtime.Gosched()
	}
	return nil
}

// scrubContain contains agent id, whose journal the scrub found damaged,
// as a start-time quarantine does: the supervisor spawns it no more
// (activate checks the store's quarantine), a live actor becomes damaged
// through its own mailbox, and the operator is told once.
func (r *Runtime) scrubContain(id string, err error) {
	r.deps.Log.Error().Err(err).Str("agent_id", id).Msg("journal scrub found damage")
	r.mu.RLock()
	pid, live := r.pids[id]
	if live && !r.closed {
		r.sys.Root.Send(pid, &scrubFound{err: err})
	}
	r.mu.RUnlock()
	if q, bad := r.storeQuarantine(id); bad && ValidateAgentID(id) == nil {
		r.journalQuarantined(q)
	}
}

// scrubDamaged turns a live agent into a damaged one, as if its recovery
// had found the damage: it stops what it runs and refuses every request.
func (a *agent) scrubDamaged(c actor.Context, m *scrubFound) {
	if a.damaged != nil {
		return
	}
	a.stop()
	a.startDamaged(m.err)
}
