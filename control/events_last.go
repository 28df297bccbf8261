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
// in between leave no hole in the answer. A range with no event in it (a
// crash repair dropped a torn tail, or retention deleted the start) does not
// end the walk while an older event exists: the next range back is twice as
// wide, so a long gap costs a few reads, not one per n seqs.
func (s *Server) readNewest(ctx context.Context, id string, high uint64, n int) ([]messages.Event, error) {
	var rev []messages.Event // newest first
	size := 0
	oldest := uint64(0) // the oldest seq stored, looked up at the first gap
	width := uint64(n)
	for to := high; to > 0 && len(rev) < n; {
		from := uint64(1)
		if to > width {
			from = to - width + 1
		}
		evs, err := s.cfg.Store.Read(ctx, id, from, to, 0)
		if err != nil {
			return nil, err
		}
		if len(evs) == 0 {
			if oldest == 0 {
				first, err := s.cfg.Store.Read(ctx, id, 1, to, 1)
				if err != nil {
					return nil, err
				}
				if len(first) == 0 {
					break
				}
				oldest = first[0].Seq
			}
			if from <= oldest {
				break
			}
			to, width = from-1, 2*width
			continue
		}
		for i := len(evs) - 1; i >= 0 && len(rev) < n; i-- {
			if size += len(evs[i].Payload); size > MaxPageBytes && len(rev) > 0 {
				return reversed(rev), nil
			}
			rev = append(rev, evs[i])
		}
		to, width = from-1, uint64(n-len(rev))
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
