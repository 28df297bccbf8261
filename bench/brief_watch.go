package bench

import (
	"context"
	"sync"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// briefWatch is the store a turns run gives its runtime: the Badger store
// it embeds (so every ability of that store stays visible to the runtime),
// which also tells an agent's driver when a brief has been appended to the
// agent's stream. A driver that tails the journal on every append reads it
// about eight times a turn, and at 1,000 agents that reading was a sixth
// of the run's CPU; told of the brief, it reads the journal once a turn,
// and still finds the brief there, durable, before it counts the turn.
type briefWatch struct {
	*persistence.BadgerStore

	mu      sync.Mutex
	drivers map[string]chan struct{} // by stream; buffered (1)
}

func newBriefWatch(st *persistence.BadgerStore) *briefWatch {
	return &briefWatch{BadgerStore: st, drivers: map[string]chan struct{}{}}
}

// watch returns the channel that receives after each append to stream
// that holds a brief; buffered (1), so a signal is not lost while the
// driver is busy. Call it before the append it must see.
func (w *briefWatch) watch(stream string) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	c, ok := w.drivers[stream]
	if !ok {
		c = make(chan struct{}, 1)
		w.drivers[stream] = c
	}
	return c
}

// Append implements persistence.Journal.
func (w *briefWatch) Append(ctx context.Context, stream string, evs []messages.Event) (uint64, error) {
	first, err := w.BadgerStore.Append(ctx, stream, evs)
	if err == nil {
		w.appended(stream, evs)
	}
	return first, err
}

// AppendAfter implements persistence.Journal.
func (w *briefWatch) AppendAfter(ctx context.Context, stream string, after uint64, evs []messages.Event) (uint64, error) {
	first, err := w.BadgerStore.AppendAfter(ctx, stream, after, evs)
	if err == nil {
		w.appended(stream, evs)
	}
	return first, err
}

// appended signals stream's driver when evs, now durable, hold a brief.
func (w *briefWatch) appended(stream string, evs []messages.Event) {
	for _, ev := range evs {
		if ev.Type != messages.EventBriefRecorded {
			continue
		}
		w.mu.Lock()
		c := w.drivers[stream]
		w.mu.Unlock()
		if c != nil {
			select {
			case c <- struct{}{}:
			default: // a signal is already waiting
			}
		}
		return
	}
}
