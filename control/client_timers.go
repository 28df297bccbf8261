package control

import (
	"context"
	"net/http"
	"net/url"

	"github.com/holon-actors/holon-actors/actors"
)

// Timers returns an agent's created timers, the next due first.
func (c *Client) Timers(ctx context.Context, id string) ([]actors.TimerView, error) {
	var out TimerList
	return out.Timers, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/timers", nil, &out)
}

// CreateTimer creates a timer for an agent on its operator's behalf.
func (c *Client) CreateTimer(ctx context.Context, id string, req actors.TimerRequest) (actors.TimerView, error) {
	var out actors.TimerView
	return out, c.do(ctx, http.MethodPost, "/control/agents/"+url.PathEscape(id)+"/timers", req, &out)
}

// ChangeTimer cancels, pauses, resumes or runs now an agent's timer and
// returns its timers after it.
func (c *Client) ChangeTimer(ctx context.Context, id string, op actors.TimerOp, timerID string) ([]actors.TimerView, error) {
	path := "/control/agents/" + url.PathEscape(id) + "/timers/" + url.PathEscape(timerID)
	method := http.MethodPost
	switch op {
	case actors.TimerCancel:
		method = http.MethodDelete
	case actors.TimerPause, actors.TimerResume:
		path += "/" + string(op)
	case actors.TimerRunNow:
		path += "/run"
	}
	var out TimerList
	return out.Timers, c.do(ctx, method, path, nil, &out)
}
