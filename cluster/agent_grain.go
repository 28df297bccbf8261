package cluster

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	pacluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/cluster/clusterpb"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/messages/messagespb"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// agentGrain is an agent's virtual actor: the cluster keeps at most one
// per agent id (best effort) on the node it places the id on, and sends it
// the agent's requests from every node. It hands them to the node's
// runtime, which activates the agent there: the activation journals
// agent_activated, so wherever the agent ran before is fenced out.
type agentGrain struct {
	rt   *actors.Runtime
	node string
	log  zerolog.Logger
	id   string
	api  http.Handler // the node's control API, for forwarded calls
}

func (g *agentGrain) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *pacluster.ClusterInit:
		g.id = m.Identity.GetIdentity()
		if err := g.rt.Claim(context.Background(), g.id); err != nil {
			g.log.Warn().Err(err).Str("agent_id", g.id).Msg("agent not activated on its node")
		}
	case *remotepb.PromptRequest:
		c.Respond(g.prompt(m))
	case *clusterpb.Activate:
		c.Respond(g.activate(m))
	case *clusterpb.AgentCall:
		c.Respond(g.call(m))
	}
}

// prompt admits an operator prompt at the agent and answers the remote
// shape.
func (g *agentGrain) prompt(r *remotepb.PromptRequest) any {
	env := r.GetEnvelope()
	text, ok := env.GetBody().GetType().(*messagespb.Body_Text)
	if !ok || r.GetAgentId() != g.id {
		return &remotepb.Error{Code: "invalid", Message: "a cluster prompt carries a text body for the agent it is sent to"}
	}
	id := env.GetId()
	if id == "" {
		id = messages.NewID("msg")
	}
	prio := messages.Priority(env.GetPriority())
	if prio == "" {
		prio = messages.PriorityNormal
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := g.rt.Admit(ctx, messages.MessageEnvelope{ID: id, AgentID: g.id, CreatedAt: time.Now(),
		Kind: messages.KindOperatorPrompt, Origin: messages.OperatorOrigin("remote"),
		Priority: prio, Body: messages.TextBody(text.Text.GetText()),
		DeliverySurface: messages.SurfaceRemoteControlPrompt, AdmissionContext: messages.AdmissionControlAuthenticated,
		CorrelationID: env.GetCorrelationId()})
	if err != nil {
		code := "refused"
		if errors.Is(err, actors.ErrFencedOut) {
			code = "fenced_out"
		}
		return &remotepb.Error{Code: code, Message: err.Error()}
	}
	return &remotepb.PromptAccepted{AgentId: g.id, MessageId: id, EventSeq: res.Seq, Duplicate: res.Duplicate}
}
