package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/cluster/clusterpb"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// callTimeout bounds a forwarded control API request at the agent's node.
const callTimeout = 30 * time.Second

// activate answers Activate: the grain's agent is activated here (the
// grain claimed it at ClusterInit; a claim that failed is retried).
func (g *agentGrain) activate(m *clusterpb.Activate) any {
	if m.GetAgentId() != g.id {
		return &remotepb.Error{Code: "invalid", Message: "a cluster activation names the agent it is sent to"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	if err := g.rt.Claim(ctx, g.id); err != nil {
		return refusal(err)
	}
	return &clusterpb.Activated{AgentId: g.id, Node: g.node}
}

// call serves a control API request forwarded from another node (or this
// one) through this node's own control API, where the agent is placed.
func (g *agentGrain) call(m *clusterpb.AgentCall) any {
	if g.api == nil {
		return &remotepb.Error{Code: "unavailable", Message: "this node serves no control API to cluster calls"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, m.GetMethod(), m.GetPath(), bytes.NewReader(m.GetBody()))
	if err != nil {
		return &remotepb.Error{Code: "bad_request", Message: fmt.Sprintf("forwarded request %s %s: %v", m.GetMethod(), m.GetPath(), err)}
	}
	if len(m.GetBody()) > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range m.GetHeaders() {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	g.api.ServeHTTP(rec, req)
	return &clusterpb.AgentCallResult{Status: uint32(rec.Code), ContentType: rec.Header().Get("Content-Type"),
		Body: rec.Body.Bytes(), Node: g.node}
}

// Activate activates agent id where the cluster places it and returns
// the node it runs on.
func (n *Node) Activate(ctx context.Context, id string) (string, error) {
	res, err := n.request(ctx, id, &clusterpb.Activate{AgentId: id})
	if err != nil {
		return "", err
	}
	a, ok := res.(*clusterpb.Activated)
	if !ok {
		return "", fmt.Errorf("cluster: activate agent %s: unexpected answer %T", id, res)
	}
	return a.GetNode(), nil
}

// Call serves a control API request about the agent whose activation is
// keyed by key (the agent, or the root of a private child's family) at
// the node the cluster places it on, and returns that node's answer.
func (n *Node) Call(ctx context.Context, key string, call *clusterpb.AgentCall) (*clusterpb.AgentCallResult, error) {
	res, err := n.request(ctx, key, call)
	if err != nil {
		return nil, err
	}
	r, ok := res.(*clusterpb.AgentCallResult)
	if !ok {
		return nil, fmt.Errorf("cluster: %s %s: unexpected answer %T", call.GetMethod(), call.GetPath(), res)
	}
	return r, nil
}

// request sends msg to agent key's grain (ask: short attempts, abandoned
// when a member leaves), again while ctx lasts, and turns a refusal into
// an error.
func (n *Node) request(ctx context.Context, key string, msg any) (any, error) {
	var last error
	for attempt := 0; ctx.Err() == nil; attempt++ {
		res, err := n.ask(ctx, key, msg)
		if err == nil {
			if e, ok := res.(*remotepb.Error); ok {
				return nil, fmt.Errorf("cluster: agent %s: %s: %s", key, e.GetCode(), e.GetMessage())
			}
			return res, nil
		}
		last = err
		if attempt >= 2 && time.Until(deadlineOf(ctx)) <= 0 {
			break
		}
		select { // the owner's death is being noticed: look again shortly
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
	if last == nil {
		last = ctx.Err()
	}
	return nil, fmt.Errorf("cluster: agent %s: %w", key, last)
}

// refusal is err as the answer of a grain that could not serve.
func refusal(err error) *remotepb.Error {
	code := "refused"
	if errors.Is(err, actors.ErrFencedOut) {
		code = "fenced_out"
	}
	return &remotepb.Error{Code: code, Message: err.Error()}
}

// deadlineOf is ctx's deadline, or a zero time (always past) without one.
func deadlineOf(ctx context.Context) time.Time {
	dl, _ := ctx.Deadline()
	return dl
}

// admit answers Admit: the envelope is admitted at the agent, here.
func (g *agentGrain) admit(m *clusterpb.Admit) any {
	var env messages.MessageEnvelope
	if err := json.Unmarshal(m.GetEnvelopeJson(), &env); err != nil {
		return &remotepb.Error{Code: "invalid", Message: fmt.Sprintf("a cluster admission's envelope: %v", err)}
	}
	if m.GetAgentId() != g.id {
		return &remotepb.Error{Code: "invalid", Message: "a cluster admission is sent to its agent's (or family root's) grain"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := g.rt.Admit(ctx, env)
	if err != nil {
		return refusal(err)
	}
	return &clusterpb.Admitted{AgentId: g.id, MessageId: res.MessageID, Seq: res.Seq, Duplicate: res.Duplicate, Node: g.node}
}

// Admit admits env at its agent's activation, keyed by key (the agent,
// or its family's root), wherever the cluster places it.
func (n *Node) Admit(ctx context.Context, key string, env messages.MessageEnvelope) (*actors.Admitted, error) {
	// The labels admission derives anyway, filled so the envelope decodes
	// (an empty label is no value of its set).
	env.Normalize()
	env.AuthorityClass = messages.DeriveAuthority(env.Origin.Kind, env.DeliverySurface, env.AdmissionContext)
	b, err := json.Marshal(env)
	if err != nil {
		return nil, fmt.Errorf("cluster: admit to %s: %w", env.AgentID, err)
	}
	res, err := n.request(ctx, key, &clusterpb.Admit{AgentId: key, EnvelopeJson: b})
	if err != nil {
		return nil, err
	}
	a, ok := res.(*clusterpb.Admitted)
	if !ok {
		return nil, fmt.Errorf("cluster: admit to %s: unexpected answer %T", env.AgentID, res)
	}
	return &actors.Admitted{MessageID: a.GetMessageId(), Seq: a.GetSeq(), Duplicate: a.GetDuplicate()}, nil
}
