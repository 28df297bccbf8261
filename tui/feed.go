package tui

import (
	"context"
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/holon-actors/holon-actors/control"
)

// feedBatch bounds the events one feedMsg carries, so a burst repaints
// once per batch rather than once per event.
const feedBatch = 512

// feedMsg is what the follower saw since the last one: events, in
// event_seq order, and whether the stream broke (it is being resumed).
type feedMsg struct {
	gen    int
	events []control.StreamEvent
	broken error
}

// feedItem is one thing the follower hands over: an event or a break.
type feedItem struct {
	ev     control.StreamEvent
	broken error
}

// feed follows one agent's event stream from a cursor. Its owner (the
// model) starts it with startFeed and ends it with stop, which waits.
type feed struct {
	gen    int
	ch     chan feedItem // sent by run, which closes it when it ends; read by wait
	cancel context.CancelFunc
	done   chan struct{} // closed when run has returned
}

// startFeed follows agent id after the event_seq after, for the model's
// generation gen; retry is the first pause before resuming a broken
// stream (doubling up to 16 times it).
func startFeed(parent context.Context, c Control, gen int, id string, after uint64, retry time.Duration) *feed {
	ctx, cancel := context.WithCancel(parent)
	f := &feed{gen: gen, ch: make(chan feedItem, feedBatch), cancel: cancel, done: make(chan struct{})}
	go f.run(ctx, c, id, after, retry)
	return f
}

// run follows the stream, resuming from the last event_seq it delivered
// each time the stream breaks, until ctx ends.
func (f *feed) run(ctx context.Context, c Control, id string, after uint64, retry time.Duration) {
	defer close(f.done)
	defer close(f.ch)
	pause := retry
	for {
		next, err := c.Follow(ctx, id, after, func(ev control.StreamEvent) error {
			pause = retry // the stream works again
			return f.send(ctx, feedItem{ev: ev})
		})
		after = next
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		if ctx.Err() != nil || f.send(ctx, feedItem{broken: err}) != nil {
			return
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		pause = min(pause*2, 16*retry)
	}
}

func (f *feed) send(ctx context.Context, it feedItem) error {
	select {
	case f.ch <- it:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wait is the command that delivers the next batch; it returns nil once
// the feed has ended.
func (f *feed) wait() tea.Cmd {
	return func() tea.Msg {
		it, ok := <-f.ch
		if !ok {
			return nil
		}
		msg := feedMsg{gen: f.gen}
		msg.add(it)
		for len(msg.events) < feedBatch && msg.broken == nil {
			select {
			case it, ok := <-f.ch:
				if !ok {
					return msg
				}
				msg.add(it)
			default:
				return msg
			}
		}
		return msg
	}
}

func (m *feedMsg) add(it feedItem) {
	if it.broken != nil {
		m.broken = it.broken
		return
	}
	m.events = append(m.events, it.ev)
}

// stop ends the feed and waits for its goroutine. Safe on nil.
func (f *feed) stop() {
	if f == nil {
		return
	}
	f.cancel()
	<-f.done
}
