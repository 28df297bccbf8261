package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// Operator serves the operator requests of a surface other than HTTP (the
// remote gateway) with the same runtime calls, checks and errors as the
// HTTP API: the same admission (idempotent by message_id), the same
// authority, and a *Error for every refusal (AsError maps any other
// error). It is immutable and safe for concurrent use.
type Operator struct {
	Runtime Runtime
	Store   persistence.Store
	Clock   clockwork.Clock
	// Surface is the delivery surface of the prompts admitted through it.
	Surface messages.MessageDeliverySurface
	// MaxPageBytes bounds an events page (0: MaxPageBytes); a transport
	// with a smaller message limit sets less.
	MaxPageBytes int
	// API is the HTTP API's handler (Server.Handler), which ServeAPI
	// calls for the requests Operator has no method of its own for.
	API http.Handler
}

// AsError is err as the API error the HTTP API answers it with: its
// status, kind, message and hint.
func AsError(err error) *Error { return runtimeError(err) }

// MaxEventsWait bounds how long Events waits for a first event.
const MaxEventsWait = 30 * time.Second

// Caller is who sends an operator request: Name, as its certificate or
// token proves it, is recorded as the operator ("operator:<name>").
type Caller struct {
	Name string
}

func (c Caller) operator() string { return "operator:" + c.Name }

// OperatorPrompt is a prompt for Operator.Prompt.
type OperatorPrompt struct {
	AgentID       string
	MessageID     string
	Text          string
	Priority      string
	CorrelationID string
}

// Prompt admits p as an operator prompt of o.Surface; it returns once the
// prompt is durable, or at once for a message_id admitted before.
func (o Operator) Prompt(ctx context.Context, c Caller, p OperatorPrompt) (PromptResponse, error) {
	if e := o.agent(ctx, p.AgentID); e != nil {
		return PromptResponse{}, e
	}
	prio, e := checkPrompt(PromptRequest{Text: p.Text, Priority: p.Priority, MessageID: p.MessageID})
	if e != nil {
		return PromptResponse{}, e
	}
	env := messages.MessageEnvelope{ID: p.MessageID, AgentID: p.AgentID, CreatedAt: o.Clock.Now(),
		Kind: messages.KindOperatorPrompt, Origin: messages.OperatorOrigin(c.operator()), Priority: prio,
		Body: messages.TextBody(p.Text), DeliverySurface: o.Surface, CorrelationID: p.CorrelationID,
		AdmissionContext: messages.AdmissionControlAuthenticated}
	if env.ID == "" {
		env.ID = messages.NewID("msg")
	}
	res, err := o.Runtime.Admit(ctx, env)
	if err != nil {
		return PromptResponse{}, runtimeError(err)
	}
	if res.Duplicate {
		if e := o.checkDuplicate(ctx, c, p.AgentID, env.ID, res.Seq); e != nil {
			return PromptResponse{}, e
		}
	}
	return PromptResponse{AgentID: p.AgentID, MessageID: res.MessageID, EventSeq: res.Seq, Duplicate: res.Duplicate}, nil
}

// Status is agent id's summary, as GET /agents/{id}/status serves it.
func (o Operator) Status(ctx context.Context, id string) (AgentSummary, error) {
	if e := o.agent(ctx, id); e != nil {
		return AgentSummary{}, e
	}
	v, err := o.Runtime.View(ctx, id)
	if err != nil {
		return AgentSummary{}, runtimeError(err)
	}
	return summarize(v), nil
}

// List is the public agents, as GET /agents/list serves them.
func (o Operator) List(ctx context.Context) ([]agentstate.AgentInfo, error) {
	all, err := o.Runtime.List(ctx)
	if err != nil {
		return nil, runtimeError(err)
	}
	return publicAgents(all), nil
}

// publicAgents filters all, a slice List gave its caller, in place down to
// its public agents.
func publicAgents(all []agentstate.AgentInfo) []agentstate.AgentInfo {
	public := all[:0]
	for _, in := range all {
		if in.Visibility != messages.VisibilityPrivate {
			public = append(public, in)
		}
	}
	return public
}

// lifecycleOps are the commands Lifecycle takes.
var lifecycleOps = []actors.ControlOp{actors.OpPause, actors.OpResume, actors.OpStop, actors.OpWake, actors.OpInterrupt}

// Lifecycle applies op (pause, resume, stop, wake or interrupt) to agent
// id, as POST /control/agents/{id}/{op} does.
func (o Operator) Lifecycle(ctx context.Context, id, op string, req LifecycleRequest) (LifecycleResponse, error) {
	cop := actors.ControlOp(op)
	known := false
	for _, k := range lifecycleOps {
		known = known || k == cop
	}
	if !known {
		return LifecycleResponse{}, errorf(http.StatusBadRequest, KindBadRequest, "op is one of pause, resume, stop, wake, interrupt",
			"lifecycle op %q is not valid", op)
	}
	if e := o.agent(ctx, id); e != nil {
		return LifecycleResponse{}, e
	}
	if req.Reason == "" {
		req.Reason = "operator " + op
	}
	var st messages.AgentStatus
	var err error
	if cop == actors.OpInterrupt {
		st, err = o.Runtime.Interrupt(ctx, id, req.KeepMessageID, req.Reason)
	} else {
		st, err = o.Runtime.Control(ctx, id, cop, req.Reason)
	}
	if err != nil {
		return LifecycleResponse{}, runtimeError(err)
	}
	return LifecycleResponse{AgentID: id, Status: st}, nil
}

// Suspensions lists agent id's suspensions (openOnly: the open ones), or,
// for id "", every agent's open ones, as the HTTP API does.
func (o Operator) Suspensions(ctx context.Context, id string, openOnly bool) (SuspensionList, error) {
	if id == "" {
		open, err := o.Runtime.OpenSuspensions(ctx)
		if err != nil {
			return SuspensionList{}, runtimeError(err)
		}
		if open == nil {
			open = []messages.SuspensionRecord{}
		}
		return SuspensionList{Suspensions: open}, nil
	}
	if e := o.agent(ctx, id); e != nil {
		return SuspensionList{}, e
	}
	all, err := o.Runtime.Suspensions(ctx, id)
	if err != nil {
		return SuspensionList{}, runtimeError(err)
	}
	out := make([]messages.SuspensionRecord, 0, len(all))
	for _, rec := range all {
		if !openOnly || rec.Open() {
			out = append(out, rec)
		}
	}
	return SuspensionList{AgentID: id, Suspensions: out}, nil
}

// Respond answers suspension sid of agent id for c; value and metadata are
// JSON.
func (o Operator) Respond(ctx context.Context, c Caller, id, sid string, value, metadata json.RawMessage) (SuspensionResponse, error) {
	if e := checkJSON("value", value, true); e != nil {
		return SuspensionResponse{}, e
	}
	if e := checkJSON("metadata", metadata, false); e != nil {
		return SuspensionResponse{}, e
	}
	if e := o.agent(ctx, id); e != nil {
		return SuspensionResponse{}, e
	}
	res, err := o.Runtime.Respond(ctx, id, actors.Answer{SuspensionID: sid, Value: value, RespondedBy: c.operator(), Metadata: metadata})
	if err != nil {
		return SuspensionResponse{}, suspensionError(err, id, sid)
	}
	return suspensionResponse(id, res), nil
}

// CancelSuspension withdraws suspension sid of agent id for c.
func (o Operator) CancelSuspension(ctx context.Context, c Caller, id, sid, reason string) (SuspensionResponse, error) {
	if e := o.agent(ctx, id); e != nil {
		return SuspensionResponse{}, e
	}
	if reason == "" {
		reason = "cancelled by the operator"
	}
	res, err := o.Runtime.CancelSuspension(ctx, id, sid, c.operator(), reason)
	if err != nil {
		return SuspensionResponse{}, suspensionError(err, id, sid)
	}
	return suspensionResponse(id, res), nil
}

// AddWorkItem enqueues a work item with objective for agent id, as POST
// /control/agents/{id}/work-items does.
func (o Operator) AddWorkItem(ctx context.Context, id, objective string) (actors.WorkItemView, error) {
	if e := checkObjective(objective); e != nil {
		return actors.WorkItemView{}, e
	}
	if e := o.agent(ctx, id); e != nil {
		return actors.WorkItemView{}, e
	}
	v, err := o.Runtime.EnqueueWorkItem(ctx, id, objective)
	if errors.Is(err, actors.ErrInvalidObjective) {
		return v, errorf(http.StatusUnprocessableEntity, KindInvalid, enqueueHint, "%v", err)
	}
	if err != nil {
		return v, runtimeError(err)
	}
	return v, nil
}

// Events reads agent id's events after after, at most limit (0:
// DefaultPageLimit) and about MaxPageBytes of them. When none follows, it
// waits up to wait (at most MaxEventsWait) for one. Events in the journal
// when the request came are marked replayed; ones that came while it
// waited are not.
func (o Operator) Events(ctx context.Context, id string, after uint64, limit int, wait time.Duration) (EventsPage, error) {
	switch {
	case limit == 0:
		limit = DefaultPageLimit
	case limit < 0 || limit > MaxPageLimit:
		return EventsPage{}, errorf(http.StatusBadRequest, KindBadRequest, fmt.Sprintf("limit is 1 to %d, or 0 for %d", MaxPageLimit, DefaultPageLimit),
			"limit %d is not valid", limit)
	}
	if e := o.agent(ctx, id); e != nil {
		return EventsPage{}, e
	}
	sub := o.Store.Subscribe(id) // before the first read, so no append is missed
	defer sub.Close()
	high, err := o.Store.HighestSeq(ctx, id)
	if err != nil {
		return EventsPage{}, runtimeError(err)
	}
	replayedUpTo := high
	if wait > MaxEventsWait {
		wait = MaxEventsWait
	}
	timer := o.Clock.NewTimer(wait)
	defer timer.Stop()
	for {
		page, err := o.page(ctx, id, after, limit, replayedUpTo)
		if err != nil || len(page.Events) > 0 || wait <= 0 {
			return page, err
		}
		select {
		case <-sub.C:
		case <-timer.Chan():
			return page, nil
		case <-ctx.Done():
			return page, nil
		}
	}
}

func (o Operator) page(ctx context.Context, id string, after uint64, limit int, replayedUpTo uint64) (EventsPage, error) {
	maxBytes := o.MaxPageBytes
	if maxBytes <= 0 {
		maxBytes = MaxPageBytes
	}
	evs, err := o.Store.ReadPage(ctx, id, after+1, ^uint64(0), limit, maxBytes)
	if err != nil {
		return EventsPage{}, runtimeError(err)
	}
	high, err := o.Store.HighestSeq(ctx, id)
	if err != nil {
		return EventsPage{}, runtimeError(err)
	}
	page := EventsPage{AgentID: id, Events: make([]StreamEvent, len(evs)), NextAfter: after, HighestSeq: high}
	for i, ev := range evs {
		page.Events[i] = NewStreamEvent(ev, ev.Seq <= replayedUpTo)
		page.NextAfter = ev.Seq
	}
	return page, nil
}

// agent checks that agent id exists, as every {id} route does.
func (o Operator) agent(ctx context.Context, id string) *Error {
	return agentExists(ctx, o.Runtime, id)
}

// agentExists is nil when agent id exists, else the 400 (bad id) or 404.
func agentExists(ctx context.Context, rt Runtime, id string) *Error {
	ok, err := rt.Exists(ctx, id)
	switch {
	case errors.Is(err, actors.ErrInvalidAgentID), errors.Is(err, persistence.ErrInvalidStream):
		return errorf(http.StatusBadRequest, KindBadRequest, "an agent id is "+messages.AgentIDRule,
			"agent id %q is not valid", id)
	case err != nil:
		return runtimeError(err)
	case !ok:
		return errorf(http.StatusNotFound, KindNotFound, "list agents with holon-actors agents list, or create it with holon-actors agents create "+id,
			"no agent %q", id)
	}
	return nil
}

// checkPrompt checks a prompt's text, priority and message id, and
// returns its priority.
func checkPrompt(req PromptRequest) (messages.Priority, *Error) {
	var prio messages.Priority
	if req.Priority != "" {
		p, err := messages.ParsePriority(req.Priority)
		if err != nil {
			return prio, errorf(http.StatusUnprocessableEntity, KindInvalid, "priority is one of interject, next, normal, background",
				"priority %q is not valid", req.Priority)
		}
		prio = p
	}
	if strings.TrimSpace(req.Text) == "" {
		return prio, errorf(http.StatusUnprocessableEntity, KindInvalid, "send the prompt in \"text\"", "text is empty or only whitespace")
	}
	if err := messages.ValidateMessageID(req.MessageID); err != nil {
		return prio, errorf(http.StatusUnprocessableEntity, KindInvalid, fmt.Sprintf("send a message_id of at most %d bytes, e.g. a UUID", messages.MessageIDMaxLen),
			"message_id is %d bytes long", len(req.MessageID))
	}
	return prio, nil
}

// checkObjective checks a work item's objective.
func checkObjective(objective string) *Error {
	switch o := strings.TrimSpace(objective); {
	case o == "":
		return errorf(http.StatusUnprocessableEntity, KindInvalid, enqueueHint, "the objective is empty")
	case len(o) > actors.MaxObjectiveChars:
		return errorf(http.StatusUnprocessableEntity, KindInvalid, enqueueHint,
			"the objective is %d characters long, more than %d", len(o), actors.MaxObjectiveChars)
	}
	return nil
}

// checkJSON checks that field holds JSON text (or nothing, unless
// required).
func checkJSON(field string, v json.RawMessage, required bool) *Error {
	switch {
	case len(v) == 0 && !required:
		return nil
	case len(v) == 0:
		return errorf(http.StatusBadRequest, KindBadRequest, "send the answer as JSON: a string for a text question, an object for a form", "%s is empty", field)
	case !json.Valid(v):
		return errorf(http.StatusBadRequest, KindBadRequest, "send "+field+" as JSON text, e.g. \"yes\" or {\"k\": 1}", "%s is not JSON", field)
	}
	return nil
}
