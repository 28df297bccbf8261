package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// The requests answered with the HTTP API's body (runtimeStatus,
// transcript, briefs, children, workItems, tasks, createAgent) are served
// through the API's own handler (control.Operator.ServeAPI), so the
// route's checks, errors and body are the socket's.

func runtimeStatus(ctx context.Context, op control.Operator, _ control.Caller, _ proto.Message) (proto.Message, error) {
	body, err := op.ServeAPI(ctx, http.MethodGet, "/control/runtime/status", nil)
	if err != nil {
		return nil, err
	}
	var st struct {
		DefaultAgentID string `json:"default_agent_id"`
	}
	if err := json.Unmarshal(body, &st); err != nil {
		return nil, err
	}
	return &remotepb.RuntimeStatus{DefaultAgentId: st.DefaultAgentID, BodyJson: body}, nil
}

// agentPath is /agents/{id}/what with query, refusing an empty id.
func agentPath(id, what string, query url.Values) (string, error) {
	if id == "" {
		return "", invalid("name the agent (agent_id)", "agent_id is empty")
	}
	p := "/agents/" + url.PathEscape(id) + "/" + what
	if len(query) > 0 {
		p += "?" + query.Encode()
	}
	return p, nil
}

// lastQuery is ?last=n, or none for 0.
func lastQuery(n uint32) url.Values {
	if n == 0 {
		return nil
	}
	return url.Values{"last": {strconv.FormatUint(uint64(n), 10)}}
}

// agentRead serves GET /agents/{id}/what and returns its body.
func agentRead(ctx context.Context, op control.Operator, id, what string, query url.Values) ([]byte, error) {
	p, err := agentPath(id, what, query)
	if err != nil {
		return nil, err
	}
	return op.ServeAPI(ctx, http.MethodGet, p, nil)
}

func transcript(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.GetTranscript)
	body, err := agentRead(ctx, op, r.GetAgentId(), "transcript", lastQuery(r.GetLast()))
	if err != nil {
		return nil, err
	}
	return &remotepb.Transcript{AgentId: r.GetAgentId(), BodyJson: body}, nil
}

func briefs(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.ListBriefs)
	body, err := agentRead(ctx, op, r.GetAgentId(), "briefs", lastQuery(r.GetLast()))
	if err != nil {
		return nil, err
	}
	return &remotepb.BriefList{AgentId: r.GetAgentId(), BodyJson: body}, nil
}

func children(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.ListChildren)
	var q url.Values
	if r.GetAll() {
		q = url.Values{"all": {"true"}}
	}
	body, err := agentRead(ctx, op, r.GetAgentId(), "children", q)
	if err != nil {
		return nil, err
	}
	return &remotepb.ChildList{AgentId: r.GetAgentId(), BodyJson: body}, nil
}

func workItems(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.ListWorkItems)
	body, err := agentRead(ctx, op, r.GetAgentId(), "work-items", nil)
	if err != nil {
		return nil, err
	}
	return &remotepb.WorkItemList{AgentId: r.GetAgentId(), BodyJson: body}, nil
}

func tasks(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.ListTasks)
	var body []byte
	var err error
	if r.GetAgentId() == "" {
		body, err = op.ServeAPI(ctx, http.MethodGet, "/tasks", nil)
	} else {
		body, err = agentRead(ctx, op, r.GetAgentId(), "tasks", nil)
	}
	if err != nil {
		return nil, err
	}
	return &remotepb.TaskList{AgentId: r.GetAgentId(), BodyJson: body}, nil
}

func createAgent(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.CreateAgent)
	if !json.Valid(r.GetRequestJson()) {
		return nil, &control.Error{Status: http.StatusBadRequest, Kind: control.KindBadRequest,
			Message: "request_json is not JSON", Hint: `send the body of POST /control/agents, e.g. {"agent_id": "reviewer"}`}
	}
	body, err := op.ServeAPI(ctx, http.MethodPost, "/control/agents", r.GetRequestJson())
	if err != nil {
		return nil, err
	}
	var created struct {
		AgentID string `json:"agent_id"`
	}
	if err := json.Unmarshal(body, &created); err != nil {
		return nil, err
	}
	return &remotepb.AgentCreated{AgentId: created.AgentID, BodyJson: body}, nil
}
