package control

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// lastEvents serves GET /agents/{id}/events?last=N: the newest N events
// (at most MaxPageLimit, and about MaxPageBytes of them), oldest first, so
// a console paints the end of a long history without reading all of it.
// NextAfter is the cursor to follow from with no gap; when the page is cut
// by size it is short of HighestSeq and the rest comes by following.
func (s *Server) lastEvents(w http.ResponseWriter, r *http.Request, id string) {
	n, e := lastCount(r.URL.Query().Get("last"))
	if e != nil {
		writeError(w, e)
		return
	}
	high, err := s.cfg.Store.HighestSeq(r.Context(), id)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	from := uint64(1)
	if high > uint64(n) {
		from = high - uint64(n) + 1
	}
	evs, err := s.cfg.Store.ReadPage(r.Context(), id, from, high, n, MaxPageBytes)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	page := EventsPage{AgentID: id, Events: make([]StreamEvent, len(evs)), NextAfter: from - 1, HighestSeq: high}
	for i, ev := range evs {
		page.Events[i] = NewStreamEvent(ev, true)
		page.NextAfter = ev.Seq
	}
	writeJSON(w, http.StatusOK, page)
}

// lastCount parses the last query parameter.
func lastCount(raw string) (int, *Error) {
	v, err := strconv.Atoi(raw)
	if err != nil || v < 1 || v > MaxPageLimit {
		return 0, errorf(http.StatusBadRequest, KindBadRequest,
			fmt.Sprintf("last is how many of the newest events to read: 1 to %d (page older ones with after and limit)", MaxPageLimit),
			"last %q is not valid", raw)
	}
	return v, nil
}

// LastEvents returns the newest n events of agent id, oldest first, and
// the cursor to follow from.
func (c *Client) LastEvents(ctx context.Context, id string, n int) (EventsPage, error) {
	var out EventsPage
	q := url.Values{"last": {strconv.Itoa(n)}}
	return out, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/events?"+q.Encode(), nil, &out)
}
