package persistence

import "sync"

// Subscription signals that new events were appended to one stream.
// Signals coalesce: one receive on C may stand for many appends, so a reader
// reads everything after its cursor each time it wakes.
type Subscription struct {
	// C receives after appends; buffered (1) so a signal is never lost
	// while the reader is busy and a slow reader never blocks Append.
	C <-chan struct{}

	c      chan struct{}
	stream string
	hub    *notifier
}

// Close stops the signals. It is safe to call more than once.
func (s *Subscription) Close() { s.hub.remove(s) }

// notifier fans out append signals to subscriptions, per stream.
type notifier struct {
	mu   sync.Mutex
	subs map[string]map[*Subscription]struct{}
}

func (n *notifier) add(stream string) *Subscription {
	c := make(chan struct{}, 1)
	s := &Subscription{C: c, c: c, stream: stream, hub: n}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.subs == nil {
		n.subs = make(map[string]map[*Subscription]struct{})
	}
	if n.subs[stream] == nil {
		n.subs[stream] = make(map[*Subscription]struct{})
	}
	n.subs[stream][s] = struct{}{}
	return s
}

func (n *notifier) remove(s *Subscription) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.subs[s.stream], s)
	if len(n.subs[s.stream]) == 0 {
		delete(n.subs, s.stream)
	}
}

func (n *notifier) notify(stream string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for s := range n.subs[stream] {
		select {
		case s.c <- struct{}{}:
		default: // a signal is already pending
		}
	}
}
