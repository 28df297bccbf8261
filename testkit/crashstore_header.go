package testkit

import (
	"context"

	"github.com/holon-actors/holon-actors/persistence"
)

// PublishHeader implements persistence.HeaderStore over a store that keeps
// headers (and drops the header otherwise, as a store without the ability
// keeps none). A dead store writes nothing.
func (c *CrashStore) PublishHeader(stream string, h persistence.Header) error {
	hs, ok := c.Store.(persistence.HeaderStore)
	switch {
	case c.isDead():
		return ErrCrashed
	case !ok:
		return nil
	}
	return hs.PublishHeader(stream, h)
}

// LoadHeader implements persistence.HeaderStore: the wrapped store's
// header, or none when it keeps none.
func (c *CrashStore) LoadHeader(ctx context.Context, stream string) (persistence.Header, bool, error) {
	hs, ok := c.Store.(persistence.HeaderStore)
	switch {
	case c.isDead():
		return persistence.Header{}, false, ErrCrashed
	case !ok:
		return persistence.Header{}, false, nil
	}
	return hs.LoadHeader(ctx, stream)
}

// StreamHeads implements persistence.HeadLister over a store that lists
// heads; over one that does not it answers ErrNoHeadLister, and the
// caller reads stream by stream.
func (c *CrashStore) StreamHeads(ctx context.Context) ([]persistence.StreamHead, error) {
	hl, ok := c.Store.(persistence.HeadLister)
	switch {
	case c.isDead():
		return nil, ErrCrashed
	case !ok:
		return nil, persistence.ErrNoHeadLister
	}
	return hl.StreamHeads(ctx)
}
