package actors

import (
	"context"
	"sort"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// Answer is an operator's answer to a suspension. Only operator-
// authenticated surfaces (the control socket, the authenticated control
// listener, the CLI) build one: no message, webhook or tool output can.
type Answer = agentstate.Answer

// The suspension errors; each says what to do. An invalid value is a
// *messages.InvalidAnswerError.
var (
	// ErrSuspensionNotFound: the agent has no suspension with that id.
	ErrSuspensionNotFound = agentstate.ErrSuspensionNotFound
	// ErrNotSuspended: the agent is not suspended awaiting input.
	ErrNotSuspended = agentstate.ErrNotSuspended
	// ErrSuspensionClosed: the suspension was already answered (with
	// another value), expired or cancelled.
	ErrSuspensionClosed = agentstate.ErrSuspensionClosed
)

// Respond answers a suspension of agent id. The first valid answer wins
// and resumes the agent; the same answer again gets the same response; a
// different later answer is ErrSuspensionClosed.
func (r *Runtime) Respond(ctx context.Context, id string, a Answer) (messages.InputResponse, error) {
	res, err := r.ask(ctx, id, &respondSuspension{answer: a})
	if err != nil {
		return messages.InputResponse{}, err
	}
	out := res.(*suspensionResult)
	return out.response, out.err
}

// CancelSuspension ends an open suspension of agent id with resolution
// cancelled; the agent resumes and the model is told the question was
// withdrawn.
func (r *Runtime) CancelSuspension(ctx context.Context, id, suspensionID, by, reason string) (messages.InputResponse, error) {
	res, err := r.ask(ctx, id, &respondSuspension{answer: Answer{SuspensionID: suspensionID, RespondedBy: by}, cancel: true, reason: reason})
	if err != nil {
		return messages.InputResponse{}, err
	}
	out := res.(*suspensionResult)
	return out.response, out.err
}

// Suspensions returns agent id's suspensions, open and recently closed,
// newest first.
func (r *Runtime) Suspensions(ctx context.Context, id string) ([]messages.SuspensionRecord, error) {
	v, err := r.operatorView(ctx, id)
	return v.suspensions, err
}

// operatorView asks agent id for its suspensions and notifications,
// without copying its whole state.
func (r *Runtime) operatorView(ctx context.Context, id string) (*operatorView, error) {
	res, err := r.ask(ctx, id, &getOperatorView{})
	if err != nil {
		return &operatorView{}, err
	}
	return res.(*operatorView), nil
}

// getOperatorView asks an agent for its operatorView.
type getOperatorView struct{}

// Priority implements mailbox.Prioritized.
func (*getOperatorView) Priority() messages.Priority { return messages.PriorityNext }

// operatorView answers getOperatorView with copies.
type operatorView struct {
	suspensions   []messages.SuspensionRecord
	notifications []agentstate.NotificationView
}

// OpenSuspensions returns the open suspensions of every agent, oldest
// first: what a client that reconnects needs to answer.
func (r *Runtime) OpenSuspensions(ctx context.Context) ([]messages.SuspensionRecord, error) {
	infos, err := r.List(ctx)
	if err != nil {
		return nil, err
	}
	var out []messages.SuspensionRecord
	for _, in := range infos {
		if len(in.OpenSuspensions) == 0 {
			continue
		}
		all, err := r.Suspensions(ctx, in.ID)
		if err != nil {
			return nil, err
		}
		for _, s := range all {
			if s.Open() {
				out = append(out, s)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].SuspendedAt.Before(out[j].SuspendedAt) })
	return out, nil
}

// Notifications returns the operator notifications recorded by or for
// agent id (its own, and its private children's), newest first.
func (r *Runtime) Notifications(ctx context.Context, id string) ([]agentstate.NotificationView, error) {
	v, err := r.operatorView(ctx, id)
	return v.notifications, err
}

// respondSuspension asks an agent to answer or cancel a suspension; the
// reply is *suspensionResult.
type respondSuspension struct {
	answer Answer
	cancel bool
	reason string
}

// Priority implements mailbox.Prioritized: an operator's answer comes before work.
func (*respondSuspension) Priority() messages.Priority { return messages.PriorityInterject }

type suspensionResult struct {
	response messages.InputResponse
	err      error
}
