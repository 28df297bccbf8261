package remote

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// longPoll is how long one ReadEvents asks the node to wait for an event
// when none follows the cursor; the node may answer sooner. It also bounds
// how long a follower takes to notice a node that went away mid-poll (a
// request's future only ends by its timeout).
const longPoll = 5 * time.Second

// Retry delays of Events after a failed read: doubled from the first up
// to the last.
const (
	firstRetry = 100 * time.Millisecond
	maxRetry   = 2 * time.Second
)

// EventsPage returns one page of agent id's events after the cursor (at
// most limit; 0 is the node's default), at once.
func (c *Client) EventsPage(ctx context.Context, id string, after uint64, limit int) (control.EventsPage, error) {
	p, err := ask[*remotepb.EventsPage](ctx, c, &remotepb.ReadEvents{AgentId: id, After: after, Limit: uint32(max(limit, 0))}, 0)
	if err != nil {
		return control.EventsPage{}, err
	}
	return eventsPage(p), nil
}

// Events yields agent id's events after event_seq after, oldest first, and
// then the new ones as they are written, until ctx ends or the consumer
// stops. A read the node does not answer (it restarts, the network
// breaks) or answers busy (429, 503) is retried from the last event
// yielded, so no event is skipped or repeated. A refusal waiting cannot
// change (an unknown agent, a bad id) is yielded as the error, and ends
// the sequence.
func (c *Client) Events(ctx context.Context, id string, after uint64) iter.Seq2[control.StreamEvent, error] {
	return func(yield func(control.StreamEvent, error) bool) {
		delay := firstRetry
		for ctx.Err() == nil {
			req := &remotepb.ReadEvents{AgentId: id, After: after, WaitMs: uint32(longPoll / time.Millisecond)}
			p, err := ask[*remotepb.EventsPage](ctx, c, req, longPoll)
			switch {
			case ctx.Err() != nil:
				return
			case err != nil && transient(err):
				select {
				case <-ctx.Done():
					return
				case <-time.After(delay):
				}
				delay = min(2*delay, maxRetry)
				continue
			case err != nil:
				yield(control.StreamEvent{}, err)
				return
			}
			delay = firstRetry
			for _, e := range p.GetEvents() {
				if e.GetProvenance().GetEventSeq() <= after {
					continue // already yielded: a page never goes back, but a resumed one may overlap
				}
				if !yield(streamEvent(e), nil) {
					return
				}
				after = e.GetProvenance().GetEventSeq()
			}
		}
	}
}

// transient reports whether a failed read is worth retrying unchanged.
func transient(err error) bool {
	var ce *control.Error
	if errors.As(err, &ce) {
		return ce.Status == http.StatusTooManyRequests || ce.Status == http.StatusServiceUnavailable
	}
	return errors.Is(err, ErrNoAnswer)
}

// Follow calls f with agent id's events after the cursor, as Events
// yields them, until ctx ends (it returns ctx's error), f returns an error
// (returned, except control.ErrStop which ends cleanly) or the node
// refuses. It returns the last event_seq f was given, as
// control.Client.Follow does.
func (c *Client) Follow(ctx context.Context, id string, after uint64, f func(control.StreamEvent) error) (uint64, error) {
	for ev, err := range c.Events(ctx, id, after) {
		if err != nil {
			return after, err
		}
		if err := f(ev); err != nil {
			if errors.Is(err, control.ErrStop) {
				return ev.Provenance.EventSeq, nil
			}
			return after, err
		}
		after = ev.Provenance.EventSeq
	}
	return after, ctx.Err()
}
