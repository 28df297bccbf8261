package remote

import (
	"context"

	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// Suspensions returns agent id's suspensions, newest first: open and
// recently closed, or with openOnly the open ones.
func (c *Client) Suspensions(ctx context.Context, id string, openOnly bool) ([]messages.SuspensionRecord, error) {
	return c.suspensions(ctx, &remotepb.ListSuspensions{AgentId: id, OpenOnly: openOnly})
}

// OpenSuspensions returns every agent's open suspensions, oldest first.
func (c *Client) OpenSuspensions(ctx context.Context) ([]messages.SuspensionRecord, error) {
	return c.suspensions(ctx, &remotepb.ListSuspensions{OpenOnly: true})
}

func (c *Client) suspensions(ctx context.Context, req *remotepb.ListSuspensions) ([]messages.SuspensionRecord, error) {
	list, err := ask[*remotepb.SuspensionList](ctx, c, req, 0)
	if err != nil {
		return nil, err
	}
	out := make([]messages.SuspensionRecord, len(list.GetSuspensions()))
	for i, s := range list.GetSuspensions() {
		if err := decodeJSON("a suspension", s.GetRecordJson(), &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Respond answers suspension sid of agent id. The node records the client
// certificate's holder as the responder, so req.RespondedBy must be empty.
// An invalid value is a *control.Error of kind invalid_answer listing the
// valid choices, if any.
func (c *Client) Respond(ctx context.Context, id, sid string, req control.RespondRequest) (control.SuspensionResponse, error) {
	if req.RespondedBy != "" {
		return control.SuspensionResponse{}, claimedResponder()
	}
	return c.suspensionResult(ctx, &remotepb.RespondSuspension{AgentId: id, SuspensionId: sid, Value: req.Value, Metadata: req.Metadata})
}

// CancelSuspension withdraws suspension sid of agent id.
func (c *Client) CancelSuspension(ctx context.Context, id, sid string, req control.CancelSuspensionRequest) (control.SuspensionResponse, error) {
	if req.RespondedBy != "" {
		return control.SuspensionResponse{}, claimedResponder()
	}
	return c.suspensionResult(ctx, &remotepb.CancelSuspension{AgentId: id, SuspensionId: sid, Reason: req.Reason})
}

func (c *Client) suspensionResult(ctx context.Context, req proto.Message) (control.SuspensionResponse, error) {
	var out control.SuspensionResponse
	res, err := ask[*remotepb.SuspensionResult](ctx, c, req, 0)
	if err != nil {
		return out, err
	}
	return out, decodeJSON("the suspension result", res.GetResultJson(), &out)
}

// claimedResponder refuses a request naming who answers, as the HTTP API
// does: the node takes the responder from the client certificate.
func claimedResponder() *control.Error {
	return &control.Error{Status: 400, Kind: control.KindBadRequest, Message: "responded_by is not taken from the request",
		Hint: "remove responded_by: the node records the operator named by your client certificate"}
}
