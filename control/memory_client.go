package control

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/memory"
)

// MemorySearch searches agent id's memory; req.Limit 0 asks the default.
func (c *Client) MemorySearch(ctx context.Context, id string, req actors.MemoryRequest) (MemorySearchResult, error) {
	q := url.Values{"q": {req.Query}}
	if req.AllWorkspaces {
		q.Set("all_workspaces", "true")
	}
	if req.Limit != 0 {
		q.Set("limit", strconv.Itoa(req.Limit))
	}
	var out MemorySearchResult
	return out, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/memory/search?"+q.Encode(), nil, &out)
}

// MemoryGet is the exact text of a source_ref of agent id's memory;
// maxChars 0 asks the default.
func (c *Client) MemoryGet(ctx context.Context, id, ref string, maxChars int) (memory.Got, error) {
	q := url.Values{"ref": {ref}}
	if maxChars != 0 {
		q.Set("max_chars", strconv.Itoa(maxChars))
	}
	var out memory.Got
	return out, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/memory/get?"+q.Encode(), nil, &out)
}
