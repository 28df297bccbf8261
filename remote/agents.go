package remote

import (
	"context"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// Status returns agent id's summary, as GET /agents/{id}/status does.
func (c *Client) Status(ctx context.Context, id string) (control.AgentSummary, error) {
	var out control.AgentSummary
	st, err := ask[*remotepb.AgentStatus](ctx, c, &remotepb.GetStatus{AgentId: id}, 0)
	if err != nil {
		return out, err
	}
	return out, decodeJSON("the agent status", st.GetStatusJson(), &out)
}

// Agents lists the public agents, as GET /agents/list does.
func (c *Client) Agents(ctx context.Context) ([]agentstate.AgentInfo, error) {
	list, err := ask[*remotepb.AgentList](ctx, c, &remotepb.ListAgents{}, 0)
	if err != nil {
		return nil, err
	}
	out := make([]agentstate.AgentInfo, len(list.GetAgents()))
	for i, a := range list.GetAgents() {
		if err := decodeJSON("the agent list", a.GetStatusJson(), &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Lifecycle sends stop, resume, pause or wake (or interrupt, sparing no
// turn) to agent id.
func (c *Client) Lifecycle(ctx context.Context, id string, op actors.ControlOp, reason string) (control.LifecycleResponse, error) {
	return c.lifecycle(ctx, &remotepb.Lifecycle{AgentId: id, Op: string(op), Reason: reason})
}

// Interrupt ends agent id's turn in flight unless it processes message
// keep ("" spares none).
func (c *Client) Interrupt(ctx context.Context, id, keep, reason string) (control.LifecycleResponse, error) {
	return c.lifecycle(ctx, &remotepb.Lifecycle{AgentId: id, Op: string(actors.OpInterrupt), Reason: reason, KeepMessageId: keep})
}

func (c *Client) lifecycle(ctx context.Context, req *remotepb.Lifecycle) (control.LifecycleResponse, error) {
	res, err := ask[*remotepb.LifecycleResult](ctx, c, req, 0)
	if err != nil {
		return control.LifecycleResponse{}, err
	}
	return control.LifecycleResponse{AgentID: res.GetAgentId(), Status: messages.AgentStatus(res.GetStatus())}, nil
}
