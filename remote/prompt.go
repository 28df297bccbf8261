package remote

import (
	"context"
	"errors"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/messages/messagespb"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// Prompt admits an operator prompt to agent id and returns once it is
// durable. The admission is idempotent by req.MessageID (Prompt makes one
// when it is empty), so an admission the node did not answer is sent again
// with the same id, up to Options.Retries more times: a prompt the node
// did admit is then answered as a duplicate of the first admission, never
// queued twice.
func (c *Client) Prompt(ctx context.Context, id string, req control.PromptRequest) (control.PromptResponse, error) {
	if req.MessageID == "" {
		req.MessageID = messages.NewID("msg")
	}
	env := &messagespb.MessageEnvelope{Id: req.MessageID, Priority: req.Priority,
		Body: &messagespb.Body{Type: &messagespb.Body_Text{Text: &messagespb.TextBody{Text: req.Text}}}}
	msg := &remotepb.PromptRequest{AgentId: id, Envelope: env}
	var err error
	for range c.opts.Retries + 1 {
		var ok *remotepb.PromptAccepted
		if ok, err = ask[*remotepb.PromptAccepted](ctx, c, msg, 0); err == nil {
			return control.PromptResponse{AgentID: ok.GetAgentId(), MessageID: ok.GetMessageId(),
				EventSeq: ok.GetEventSeq(), Duplicate: ok.GetDuplicate()}, nil
		}
		if !errors.Is(err, ErrNoAnswer) || ctx.Err() != nil {
			break
		}
	}
	return control.PromptResponse{}, err
}
