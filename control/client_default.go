package control

import (
	"context"
	"net/http"
)

// DefaultStatus returns the default agent's summary (GET /status): one
// agent's question, so it answers fast however many agents are busy.
func (c *Client) DefaultStatus(ctx context.Context) (AgentSummary, error) {
	var out AgentSummary
	return out, c.do(ctx, http.MethodGet, "/status", nil, &out)
}
