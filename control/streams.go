package control

import (
	"context"
	"sync"
)

// DefaultMaxEventStreams is the cap on concurrent event streams when
// Config.MaxEventStreams is 0.
const DefaultMaxEventStreams = 256

// streamGate counts the open event streams and refuses one over its cap.
type streamGate struct {
	max int

	mu   sync.Mutex
	open int           // guarded by mu
	left chan struct{} // closed and replaced (under mu) each time a stream ends
}

func newStreamGate(max int) *streamGate {
	if max <= 0 {
		max = DefaultMaxEventStreams
	}
	return &streamGate{max: max, left: make(chan struct{})}
}

// acquire takes a place for a stream; false when all are taken.
func (g *streamGate) acquire() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open >= g.max {
		return false
	}
	g.open++
	return true
}

// release gives back a place taken by acquire and returns the streams
// still open.
func (g *streamGate) release() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.open--
	close(g.left)
	g.left = make(chan struct{})
	return g.open
}

// count returns the open streams and a channel closed when one ends.
func (g *streamGate) count() (int, <-chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.open, g.left
}

// EventStreams returns the number of event streams open now.
func (s *Server) EventStreams() int {
	n, _ := s.streams.count()
	return n
}

// WaitEventStreams waits until at most n event streams are open (a stream
// is counted until its handler has let go of its subscription and pages),
// or ctx ends.
func (s *Server) WaitEventStreams(ctx context.Context, n int) error {
	for {
		open, left := s.streams.count()
		if open <= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-left:
		}
	}
}
