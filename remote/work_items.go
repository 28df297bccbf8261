package remote

import (
	"context"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// EnqueueWorkItem creates a queued work item for agent id.
func (c *Client) EnqueueWorkItem(ctx context.Context, id, objective string) (actors.WorkItemView, error) {
	var out actors.WorkItemView
	res, err := ask[*remotepb.WorkItemAdded](ctx, c, &remotepb.AddWorkItem{AgentId: id, Objective: objective}, 0)
	if err != nil {
		return out, err
	}
	return out, decodeJSON("the work item", res.GetItemJson(), &out)
}
