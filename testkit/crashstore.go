package testkit

import (
	"context"
	"errors"
	"sync"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// ErrCrashed is what every store operation returns once the simulated
// process has died.
var ErrCrashed = errors.New("testkit: simulated crash")

// CrashStore wraps a Store to simulate a hard crash at an exact point:
// when an appended batch contains an event matching the armed predicate,
// the batch is made durable and then the Append never returns — the
// process "died" right after that step. From then on every operation
// fails with ErrCrashed, so nothing more reaches the disk. Release unblocks
// the frozen Append (with ErrCrashed) so the dead runtime can be torn down.
type CrashStore struct {
	persistence.Store

	mu      sync.Mutex
	armed   func(messages.Event) bool
	dead    bool
	died    chan struct{} // closed when the crash happens
	release chan struct{} // closed by Release
}

// NewCrashStore wraps s.
func NewCrashStore(s persistence.Store) *CrashStore {
	return &CrashStore{Store: s, died: make(chan struct{}), release: make(chan struct{})}
}

// CrashAfter arms the crash: the first batch holding an event for which
// match is true is the last thing written.
func (c *CrashStore) CrashAfter(match func(messages.Event) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed = match
}

// Crash kills the store now: nothing more is written.
func (c *CrashStore) Crash() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kill()
}

func (c *CrashStore) kill() {
	if !c.dead {
		c.dead = true
		close(c.died)
	}
}

// Died is closed once the crash happened.
func (c *CrashStore) Died() <-chan struct{} { return c.died }

// Release lets a frozen Append return ErrCrashed.
func (c *CrashStore) Release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.release:
	default:
		close(c.release)
	}
}

func (c *CrashStore) isDead() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dead
}

// Append implements persistence.Journal.
func (c *CrashStore) Append(ctx context.Context, stream string, events []messages.Event) (uint64, error) {
	return c.AppendAfter(ctx, stream, ^uint64(0), events)
}

// AppendAfter implements persistence.Journal.
func (c *CrashStore) AppendAfter(ctx context.Context, stream string, after uint64, events []messages.Event) (uint64, error) {
	if after == ^uint64(0) {
		return c.append(events, func() (uint64, error) { return c.Store.Append(ctx, stream, events) })
	}
	return c.append(events, func() (uint64, error) { return c.Store.AppendAfter(ctx, stream, after, events) })
}

// AppendDeferred implements persistence.DeferredAppender over a store
// that defers (and appends durably over one that does not). A crash
// armed on its events kills the store once they are written, as for
// AppendAfter: a process that dies keeps what it wrote unsynced, since
// the kernel holds it.
func (c *CrashStore) AppendDeferred(ctx context.Context, stream string, after uint64, events []messages.Event) (uint64, error) {
	d, ok := c.Store.(persistence.DeferredAppender)
	if !ok {
		return c.AppendAfter(ctx, stream, after, events)
	}
	return c.append(events, func() (uint64, error) { return d.AppendDeferred(ctx, stream, after, events) })
}

// append runs write unless the store is dead, then trips the armed crash.
func (c *CrashStore) append(events []messages.Event, write func() (uint64, error)) (uint64, error) {
	if c.isDead() {
		return 0, ErrCrashed
	}
	first, err := write()
	if err != nil || !c.trips(events) {
		return first, err
	}
	<-c.release // the process is dead: this call never really returns
	return 0, ErrCrashed
}

// trips kills the store if events match the armed predicate.
func (c *CrashStore) trips(events []messages.Event) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed == nil || c.dead {
		return false
	}
	for _, ev := range events {
		if c.armed(ev) {
			c.kill()
			return true
		}
	}
	return false
}

// Read implements persistence.Journal.
func (c *CrashStore) Read(ctx context.Context, stream string, from, to uint64, limit int) ([]messages.Event, error) {
	if c.isDead() {
		return nil, ErrCrashed
	}
	return c.Store.Read(ctx, stream, from, to, limit)
}

// SaveSnapshot implements persistence.SnapshotStore.
func (c *CrashStore) SaveSnapshot(ctx context.Context, s persistence.Snapshot) error {
	if c.isDead() {
		return ErrCrashed
	}
	return c.Store.SaveSnapshot(ctx, s)
}

// LoadSnapshot implements persistence.SnapshotStore.
func (c *CrashStore) LoadSnapshot(ctx context.Context, stream string, cr persistence.SnapshotCriteria) (persistence.Snapshot, bool, error) {
	if c.isDead() {
		return persistence.Snapshot{}, false, ErrCrashed
	}
	return c.Store.LoadSnapshot(ctx, stream, cr)
}

// DeleteSnapshots implements persistence.SnapshotStore.
func (c *CrashStore) DeleteSnapshots(ctx context.Context, stream string, cr persistence.SnapshotCriteria) error {
	if c.isDead() {
		return ErrCrashed
	}
	return c.Store.DeleteSnapshots(ctx, stream, cr)
}

// DeleteUpTo implements persistence.Journal.
func (c *CrashStore) DeleteUpTo(ctx context.Context, stream string, upTo uint64) error {
	if c.isDead() {
		return ErrCrashed
	}
	return c.Store.DeleteUpTo(ctx, stream, upTo)
}
