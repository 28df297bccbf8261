package control

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// LastEvents returns the newest n events of an agent, oldest first; the
// page's NextAfter is where a follow goes on.
func (c *Client) LastEvents(ctx context.Context, id string, n int) (EventsPage, error) {
	var out EventsPage
	q := url.Values{"last": {strconv.Itoa(n)}}
	return out, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/events?"+q.Encode(), nil, &out)
}

// TranscriptLast returns the newest n items of an agent's conversation
// (every item when n is 0).
func (c *Client) TranscriptLast(ctx context.Context, id string, n int) ([]providers.Item, error) {
	var out struct {
		Items []providers.Item `json:"items"`
	}
	return out.Items, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/transcript"+lastQuery(n), nil, &out)
}

// BriefsLast returns the newest n briefs of an agent, oldest first (every
// brief when n is 0).
func (c *Client) BriefsLast(ctx context.Context, id string, n int) ([]messages.Brief, error) {
	var out struct {
		Briefs []messages.Brief `json:"briefs"`
	}
	return out.Briefs, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/briefs"+lastQuery(n), nil, &out)
}

// lastQuery is "?last=n", or "" for everything.
func lastQuery(n int) string {
	if n <= 0 {
		return ""
	}
	return "?last=" + strconv.Itoa(n)
}

// Tasks lists agent id's background tasks, running first, then newest
// first; id "" lists every active agent's.
func (c *Client) Tasks(ctx context.Context, id string) ([]TaskView, error) {
	path := "/tasks"
	if id != "" {
		path = "/agents/" + url.PathEscape(id) + "/tasks"
	}
	var out TaskList
	return out.Tasks, c.do(ctx, http.MethodGet, path, nil, &out)
}
