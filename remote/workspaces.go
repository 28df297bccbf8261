package remote

import (
	"context"
	"encoding/json"

	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// Workspaces returns agent id's active and attached workspaces.
func (c *Client) Workspaces(ctx context.Context, id string) (agentstate.WorkspaceView, error) {
	return c.workspaces(ctx, &remotepb.GetWorkspaces{AgentId: id})
}

// UseWorkspace makes the workspace req names agent id's active one.
func (c *Client) UseWorkspace(ctx context.Context, id string, req actors.WorkspaceRequest) (agentstate.WorkspaceView, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return agentstate.WorkspaceView{}, err
	}
	return c.workspaces(ctx, &remotepb.UseWorkspace{AgentId: id, RequestJson: body})
}

// DetachWorkspace removes workspaceID from agent id's attached set.
func (c *Client) DetachWorkspace(ctx context.Context, id, workspaceID string) (agentstate.WorkspaceView, error) {
	return c.workspaces(ctx, &remotepb.DetachWorkspace{AgentId: id, WorkspaceId: workspaceID})
}

// workspaces sends a workspace request and decodes the view it answers.
func (c *Client) workspaces(ctx context.Context, req proto.Message) (agentstate.WorkspaceView, error) {
	var out agentstate.WorkspaceView
	res, err := ask[*remotepb.Workspaces](ctx, c, req, 0)
	if err != nil {
		return out, err
	}
	return out, decodeJSON("the workspaces", res.GetBodyJson(), &out)
}

// DebugPrompt is what agent id's next prompt is made of.
func (c *Client) DebugPrompt(ctx context.Context, id string) (actors.PromptDebug, error) {
	var out actors.PromptDebug
	res, err := ask[*remotepb.PromptDebug](ctx, c, &remotepb.GetPromptDebug{AgentId: id}, 0)
	if err != nil {
		return out, err
	}
	return out, decodeJSON("the prompt's makings", res.GetBodyJson(), &out)
}
