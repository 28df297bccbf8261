package control

import (
	"context"
	"net/http"

	"github.com/holon-actors/holon-actors/messages"
)

// agentEventsLast serves the newest n events of id as one JSON page,
// oldest first: what `tail` shows of a busy agent without paging through
// its history. Its next_after is the newest event_seq served, so a client
// follows on from there; its events are bounded by MaxPageBytes like any
// page, dropping the oldest of the n first. e is lastParam's refusal.
func (s *Server) eventsLast(w http.ResponseWriter, r *http.Request, id string, n int, e *Error) {
	if e == nil && r.URL.Query().Has("after") {
		e = errorf(http.StatusBadRequest, KindBadRequest, "after pages forward from an event_seq; last takes the newest: drop one",
			"after and last are both given")
	}
	if e != nil {
		writeError(w, e)
		return
	}
	high, err := s.cfg.Store.HighestSeq(r.Context(), id)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	evs, err := s.readNewest(r.Context(), id, high, n)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	page := EventsPage{AgentID: id, Events: make([]StreamEvent, len(evs)), HighestSeq: high}
	for i, ev := range evs {
		page.Events[i] = NewStreamEvent(ev, true)
		page.NextAfter = ev.Seq
	}
	if len(evs) == 0 {
		page.NextAfter = high
	}
	writeJSON(w, http.StatusOK, page)
}

// readNewest reads the newest events of id up to high, at most n of them
// and about MaxPageBytes of them (the newest one whatever its size),
// walking back from high one range at a time, so sequence numbers deleted
// in between (a dropped record) leave no hole in the answer. A range with
// no event at all ends the walk: retention deleted everything before it.
func (s *Server) readNewest(ctx context.Context, id string, high uint64, n int) ([]messages.Event, error) {
	var rev []messages.Event // newest first
	size := 0
	for to := high; to > 0 && len(rev) < n; {
		from := uint64(1)
		if want := uint64(n - len(rev)); to > want {
			from = to - want + 1
		}
		evs, err := s.cfg.Store.Read(ctx, id, from, to, 0)
		if err != nil {
			return nil, err
		}
		if len(evs) == 0 {
			break
		}
		for i := len(evs) - 1; i >= 0 && len(rev) < n; i-- {
			if size += len(evs[i].Payload); size > MaxPageBytes && len(rev) > 0 {
				return reversed(rev), nil
			}
			rev = append(rev, evs[i])
		}
		to = from - 1
	}
	return reversed(rev), nil
}

// reversed reverses s in place and returns it.
func reversed[T any](s []T) []T {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
	return s
}
