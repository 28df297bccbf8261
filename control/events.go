package control

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// EventsPage is one JSON page of GET /agents/{id}/events.
type EventsPage struct {
	AgentID string        `json:"agent_id"`
	Events  []StreamEvent `json:"events"`
	// NextAfter is the cursor for the next page: the last event_seq served,
	// or the request's after when the page is empty.
	NextAfter  uint64 `json:"next_after"`
	HighestSeq uint64 `json:"highest_seq"`
}

func (s *Server) agentEvents(w http.ResponseWriter, r *http.Request) {
	id, ok := s.agentID(w, r)
	if !ok {
		return
	}
	after, limit, e := eventCursor(r)
	if e != nil {
		writeError(w, e)
		return
	}
	if acceptsEventStream(r) {
		s.streamEvents(w, r, id, after)
		return
	}
	if r.URL.Query().Has("last") {
		s.lastEvents(w, r, id)
		return
	}
	evs, err := s.cfg.Store.ReadPage(r.Context(), id, after+1, ^uint64(0), limit, MaxPageBytes)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	high, err := s.cfg.Store.HighestSeq(r.Context(), id)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	page := EventsPage{AgentID: id, Events: make([]StreamEvent, len(evs)), NextAfter: after, HighestSeq: high}
	for i, ev := range evs {
		page.Events[i] = NewStreamEvent(ev, true)
		page.NextAfter = ev.Seq
	}
	writeJSON(w, http.StatusOK, page)
}

// eventCursor reads after (query, or the Last-Event-ID header of a
// resuming event stream) and limit.
func eventCursor(r *http.Request) (after uint64, limit int, e *Error) {
	q := r.URL.Query()
	raw := q.Get("after")
	if raw == "" {
		raw = r.Header.Get("Last-Event-ID")
	}
	if raw != "" {
		v, err := strconv.ParseUint(raw, 10, 64)
		if err != nil {
			return 0, 0, errorf(http.StatusBadRequest, KindBadRequest, "after is an event_seq: a non-negative integer",
				"after %q is not an event_seq", raw)
		}
		after = v
	}
	limit = DefaultPageLimit
	if raw := q.Get("limit"); raw != "" {
		v, err := strconv.Atoi(raw)
		if err != nil || v < 1 || v > MaxPageLimit {
			return 0, 0, errorf(http.StatusBadRequest, KindBadRequest, fmt.Sprintf("limit is 1 to %d", MaxPageLimit),
				"limit %q is not valid", raw)
		}
		limit = v
	}
	return after, limit, nil
}

func acceptsEventStream(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// streamRetryAfter is the Retry-After, in seconds, of a refused stream.
const streamRetryAfter = 5

// streamEvents serves the agent's events after the cursor as Server-Sent
// Events, then follows new ones until the client or the server goes away.
// Each event's id is its event_seq, so a client resumes with Last-Event-ID
// without a gap or a duplicate. Events come in pages bounded by size from
// the frame cache, which encodes each once for every stream; past
// MaxEventStreams a stream is refused with 429.
func (s *Server) streamEvents(w http.ResponseWriter, r *http.Request, id string, after uint64) {
	if !s.streams.acquire() {
		w.Header().Set("Retry-After", strconv.Itoa(streamRetryAfter))
		writeError(w, errorf(http.StatusTooManyRequests, KindBackpressure,
			fmt.Sprintf("retry in %d s, close another stream, or page with GET without Accept: text/event-stream", streamRetryAfter),
			"the event stream limit (%d open at once, run --max-event-streams) is reached", s.streams.max))
		return
	}
	defer func() {
		if s.streams.release() == 0 {
			s.frames.clear() // nobody follows: nothing to share
		}
	}()
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	sub := s.cfg.Store.Subscribe(id)
	defer sub.Close()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil {
		return
	}
	ctx := r.Context()
	tick := s.cfg.Clock.NewTicker(keepAlive)
	defer tick.Stop()
	// Events up to opened were in the journal when the stream opened (the
	// subscription came first, so none after it is missed): replayed.
	opened, err := s.cfg.Store.HighestSeq(ctx, id)
	if err != nil {
		s.cfg.Log.Debug().Err(err).Str("agent_id", id).Msg("event stream ended")
		return
	}
	for {
		frames, err := s.frames.next(ctx, id, after, opened)
		if err != nil {
			s.cfg.Log.Debug().Err(err).Str("agent_id", id).Msg("event stream ended")
			return
		}
		if len(frames) > 0 {
			if after, err = s.writeFrames(w, rc, frames); err != nil {
				s.cfg.Log.Debug().Err(err).Str("agent_id", id).Msg("event stream ended")
				return
			}
			continue // there may be more than one page
		}
		select {
		case <-ctx.Done():
			return
		case <-sub.C:
		case <-tick.Chan():
			_ = rc.SetWriteDeadline(time.Now().Add(s.cfg.StreamWriteTimeout))
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		}
	}
}

// writeFrames writes a page of frames, shared with other streams and never
// copied, and flushes it; it returns the last event_seq written. A client
// that does not take the page within StreamWriteTimeout (a deadline on the
// connection's writes, real time) ends the stream.
func (s *Server) writeFrames(w io.Writer, rc *http.ResponseController, frames []*frame) (uint64, error) {
	_ = rc.SetWriteDeadline(time.Now().Add(s.cfg.StreamWriteTimeout))
	for _, f := range frames {
		if _, err := w.Write(f.data); err != nil {
			return 0, err
		}
	}
	return frames[len(frames)-1].seq, rc.Flush()
}
