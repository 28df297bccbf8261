package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// The workspace requests and the prompt's makings are served, like the
// reads, through the API's own handler (control.Operator.ServeAPI): the
// route's checks, errors and body are the socket's.

// controlAgentPath is /control/agents/{id}/what, refusing an empty id.
func controlAgentPath(id, what string) (string, error) {
	if id == "" {
		return "", invalid("name the agent (agent_id)", "agent_id is empty")
	}
	return "/control/agents/" + url.PathEscape(id) + "/" + what, nil
}

// agentCall serves method /control/agents/{id}/what with body.
func agentCall(ctx context.Context, op control.Operator, method, id, what string, body []byte) ([]byte, error) {
	p, err := controlAgentPath(id, what)
	if err != nil {
		return nil, err
	}
	return op.ServeAPI(ctx, method, p, body)
}

func getWorkspaces(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.GetWorkspaces)
	body, err := agentCall(ctx, op, http.MethodGet, r.GetAgentId(), "workspaces", nil)
	if err != nil {
		return nil, err
	}
	return &remotepb.Workspaces{AgentId: r.GetAgentId(), BodyJson: body}, nil
}

func useWorkspace(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.UseWorkspace)
	if !json.Valid(r.GetRequestJson()) {
		return nil, &control.Error{Status: http.StatusBadRequest, Kind: control.KindBadRequest,
			Message: "request_json is not JSON", Hint: `send the body of POST /control/agents/{id}/workspaces/use, e.g. {"path": "/src/shop", "mode": "direct"}`}
	}
	body, err := agentCall(ctx, op, http.MethodPost, r.GetAgentId(), "workspaces/use", r.GetRequestJson())
	if err != nil {
		return nil, err
	}
	return &remotepb.Workspaces{AgentId: r.GetAgentId(), BodyJson: body}, nil
}

func detachWorkspace(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.DetachWorkspace)
	req, err := json.Marshal(control.DetachWorkspaceRequest{WorkspaceID: r.GetWorkspaceId()})
	if err != nil {
		return nil, err
	}
	body, err := agentCall(ctx, op, http.MethodPost, r.GetAgentId(), "workspaces/detach", req)
	if err != nil {
		return nil, err
	}
	return &remotepb.Workspaces{AgentId: r.GetAgentId(), BodyJson: body}, nil
}

func promptDebug(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.GetPromptDebug)
	body, err := agentCall(ctx, op, http.MethodGet, r.GetAgentId(), "debug/prompt", nil)
	if err != nil {
		return nil, err
	}
	return &remotepb.PromptDebug{AgentId: r.GetAgentId(), BodyJson: body}, nil
}
