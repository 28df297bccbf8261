package control

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/holon-actors/holon-actors/actors"
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

// DeleteAgent deletes agent id and its private children; force stops
// them when they have work in flight.
func (c *Client) DeleteAgent(ctx context.Context, id string, force bool) (actors.DeleteResult, error) {
	var out actors.DeleteResult
	path := "/control/agents/" + url.PathEscape(id)
	if force {
		path += "?force=true"
	}
	return out, c.do(ctx, http.MethodDelete, path, nil, &out)
}

// ExportAgent writes agent id's archive to w. An error after the first
// byte (a cut stream) leaves w with a partial archive: write to a
// temporary file and keep it only on success.
func (c *Client) ExportAgent(ctx context.Context, id string, w io.Writer) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/control/agents/"+url.PathEscape(id)+"/export", nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return c.transportError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return decodeError(resp)
	}
	if _, err := io.Copy(w, resp.Body); err != nil {
		return fmt.Errorf("export of agent %s cut short: %w", id, err)
	}
	return nil
}

// ImportAgent sends the agent archive read from r to be restored.
func (c *Client) ImportAgent(ctx context.Context, r io.Reader) (actors.ImportResult, error) {
	var out actors.ImportResult
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/control/agents/import", r)
	if err != nil {
		return out, err
	}
	req.Header.Set("Content-Type", ArchiveContentType)
	resp, err := c.http.Do(req)
	if err != nil {
		return out, c.transportError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return out, decodeError(resp)
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return out, fmt.Errorf("decode answer to the import: %w", err)
	}
	return out, nil
}
