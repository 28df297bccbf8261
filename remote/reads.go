package remote

import (
	"context"
	"encoding/json"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// RuntimeStatus returns the runtime's status, as GET
// /control/runtime/status does: its default agent, health and activity.
func (c *Client) RuntimeStatus(ctx context.Context) (control.RuntimeStatus, error) {
	var out control.RuntimeStatus
	res, err := ask[*remotepb.RuntimeStatus](ctx, c, &remotepb.GetRuntimeStatus{}, 0)
	if err != nil {
		return out, err
	}
	return out, decodeJSON("the runtime status", res.GetBodyJson(), &out)
}

// Transcript returns agent id's transcript.
func (c *Client) Transcript(ctx context.Context, id string) ([]providers.Item, error) {
	return c.TranscriptLast(ctx, id, 0)
}

// TranscriptLast returns the newest n items of agent id's transcript
// (every item when n is 0).
func (c *Client) TranscriptLast(ctx context.Context, id string, n int) ([]providers.Item, error) {
	var out struct {
		Items []providers.Item `json:"items"`
	}
	res, err := ask[*remotepb.Transcript](ctx, c, &remotepb.GetTranscript{AgentId: id, Last: count(n)}, 0)
	if err != nil {
		return nil, err
	}
	return out.Items, decodeJSON("the transcript", res.GetBodyJson(), &out)
}

// Briefs returns agent id's briefs, oldest first.
func (c *Client) Briefs(ctx context.Context, id string) ([]messages.Brief, error) {
	return c.BriefsLast(ctx, id, 0)
}

// BriefsLast returns the newest n briefs of agent id, oldest first (every
// brief when n is 0).
func (c *Client) BriefsLast(ctx context.Context, id string, n int) ([]messages.Brief, error) {
	var out struct {
		Briefs []messages.Brief `json:"briefs"`
	}
	res, err := ask[*remotepb.BriefList](ctx, c, &remotepb.ListBriefs{AgentId: id, Last: count(n)}, 0)
	if err != nil {
		return nil, err
	}
	return out.Briefs, decodeJSON("the briefs", res.GetBodyJson(), &out)
}

// Children returns agent id's children (all: the finished ones too).
func (c *Client) Children(ctx context.Context, id string, all bool) ([]actors.ChildView, error) {
	var out control.ChildList
	res, err := ask[*remotepb.ChildList](ctx, c, &remotepb.ListChildren{AgentId: id, All: all}, 0)
	if err != nil {
		return nil, err
	}
	return out.Children, decodeJSON("the children", res.GetBodyJson(), &out)
}

// WorkItems returns agent id's work items, oldest first.
func (c *Client) WorkItems(ctx context.Context, id string) ([]actors.WorkItemView, error) {
	var out control.WorkItemList
	res, err := ask[*remotepb.WorkItemList](ctx, c, &remotepb.ListWorkItems{AgentId: id}, 0)
	if err != nil {
		return nil, err
	}
	return out.WorkItems, decodeJSON("the work items", res.GetBodyJson(), &out)
}

// Tasks returns agent id's tasks, or every agent's when id is "".
func (c *Client) Tasks(ctx context.Context, id string) ([]control.TaskView, error) {
	var out control.TaskList
	res, err := ask[*remotepb.TaskList](ctx, c, &remotepb.ListTasks{AgentId: id}, 0)
	if err != nil {
		return nil, err
	}
	return out.Tasks, decodeJSON("the tasks", res.GetBodyJson(), &out)
}

// CreateAgentWith creates a named agent as req asks.
func (c *Client) CreateAgentWith(ctx context.Context, req control.CreateAgentRequest) (agentstate.AgentInfo, error) {
	var out agentstate.AgentInfo
	body, err := json.Marshal(req)
	if err != nil {
		return out, err
	}
	res, err := ask[*remotepb.AgentCreated](ctx, c, &remotepb.CreateAgent{RequestJson: body}, 0)
	if err != nil {
		return out, err
	}
	return out, decodeJSON("the new agent", res.GetBodyJson(), &out)
}

// count is n as a wire count, 0 for none or less.
func count(n int) uint32 { return uint32(max(n, 0)) }
