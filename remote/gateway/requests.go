package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages/messagespb"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// handler answers one request type; its error is a *control.Error or is
// mapped like the HTTP API maps it.
type handler func(ctx context.Context, op control.Operator, who control.Caller, m proto.Message) (proto.Message, error)

// handlers maps each request message's full name to its handler; it is
// also the list of what a client-role peer may send.
var handlers = map[string]handler{
	name(&remotepb.PromptRequest{}):     prompt,
	name(&remotepb.ReadEvents{}):        readEvents,
	name(&remotepb.GetStatus{}):         getStatus,
	name(&remotepb.ListAgents{}):        listAgents,
	name(&remotepb.Lifecycle{}):         lifecycle,
	name(&remotepb.ListSuspensions{}):   listSuspensions,
	name(&remotepb.RespondSuspension{}): respondSuspension,
	name(&remotepb.CancelSuspension{}):  cancelSuspension,
	name(&remotepb.AddWorkItem{}):       addWorkItem,
	// reads.go
	name(&remotepb.GetRuntimeStatus{}): runtimeStatus,
	name(&remotepb.GetTranscript{}):    transcript,
	name(&remotepb.ListBriefs{}):       briefs,
	name(&remotepb.ListChildren{}):     children,
	name(&remotepb.ListWorkItems{}):    workItems,
	name(&remotepb.ListTasks{}):        tasks,
	name(&remotepb.CreateAgent{}):      createAgent,
	// workspaces.go
	name(&remotepb.GetWorkspaces{}):   getWorkspaces,
	name(&remotepb.UseWorkspace{}):    useWorkspace,
	name(&remotepb.DetachWorkspace{}): detachWorkspace,
	name(&remotepb.GetPromptDebug{}):  promptDebug,
}

func name(m proto.Message) string { return string(proto.MessageName(m)) }

// RequestTypes lists the full names of the request messages the gateway
// answers: all a client-role peer may send.
func RequestTypes() []string {
	out := make([]string, 0, len(handlers))
	for n := range handlers {
		out = append(out, n)
	}
	return out
}

func invalid(hint, format string, args ...any) *control.Error {
	return &control.Error{Status: http.StatusUnprocessableEntity, Kind: control.KindInvalid, Message: fmt.Sprintf(format, args...), Hint: hint}
}

func prompt(ctx context.Context, op control.Operator, who control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.PromptRequest)
	env := r.GetEnvelope()
	if env == nil {
		return nil, invalid("send the prompt as envelope.body.text", "the prompt has no envelope")
	}
	if f := nodeOwned(r.GetAgentId(), env); f != "" {
		return nil, invalid("leave "+f+" empty: the node sets it; a client sets id, body, priority and correlation_id",
			"envelope.%s is set by the node, not the client", f)
	}
	text, ok := env.GetBody().GetType().(*messagespb.Body_Text)
	if !ok {
		return nil, invalid("send the prompt as envelope.body.text", "the prompt's body is not text")
	}
	res, err := op.Prompt(ctx, who, control.OperatorPrompt{AgentID: r.GetAgentId(), MessageID: env.GetId(),
		Text: text.Text.GetText(), Priority: env.GetPriority(), CorrelationID: env.GetCorrelationId()})
	if err != nil {
		return nil, err
	}
	return &remotepb.PromptAccepted{AgentId: res.AgentID, MessageId: res.MessageID, EventSeq: res.EventSeq, Duplicate: res.Duplicate}, nil
}

// nodeOwned names the first envelope field a client set that only the
// node sets, or "".
func nodeOwned(agentID string, env *messagespb.MessageEnvelope) string {
	switch {
	case env.GetAgentId() != "" && env.GetAgentId() != agentID:
		return "agent_id"
	case env.GetCreatedAt() != nil:
		return "created_at"
	case env.GetKind() != "":
		return "kind"
	case env.GetOrigin() != nil:
		return "origin"
	case env.GetTrust() != "":
		return "trust"
	case env.GetAuthorityClass() != "":
		return "authority_class"
	case env.GetTriggerKind() != "":
		return "trigger_kind"
	case env.GetWorkItemId() != "":
		return "work_item_id"
	case env.GetTaskId() != "":
		return "task_id"
	case len(env.GetSourceRefs()) > 0:
		return "source_refs"
	case len(env.GetMetadata()) > 0:
		return "metadata"
	case env.GetDeliverySurface() != "":
		return "delivery_surface"
	case env.GetAdmissionContext() != "":
		return "admission_context"
	case env.GetCausationId() != "":
		return "causation_id"
	}
	return ""
}

func readEvents(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.ReadEvents)
	page, err := op.Events(ctx, r.GetAgentId(), r.GetAfter(), int(r.GetLimit()), time.Duration(r.GetWaitMs())*time.Millisecond)
	if err != nil {
		return nil, err
	}
	return eventsPage(page), nil
}

func getStatus(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.GetStatus)
	sum, err := op.Status(ctx, r.GetAgentId())
	if err != nil {
		return nil, err
	}
	return agentStatus(sum.ID, string(sum.Status), sum)
}

func listAgents(ctx context.Context, op control.Operator, _ control.Caller, _ proto.Message) (proto.Message, error) {
	all, err := op.List(ctx)
	if err != nil {
		return nil, err
	}
	out := &remotepb.AgentList{Agents: make([]*remotepb.AgentStatus, 0, len(all))}
	for _, in := range all {
		st, err := agentStatus(in.ID, string(in.Status), in)
		if err != nil {
			return nil, err
		}
		out.Agents = append(out.Agents, st)
	}
	return out, nil
}

func lifecycle(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.Lifecycle)
	res, err := op.Lifecycle(ctx, r.GetAgentId(), r.GetOp(), control.LifecycleRequest{Reason: r.GetReason(), KeepMessageID: r.GetKeepMessageId()})
	if err != nil {
		return nil, err
	}
	return &remotepb.LifecycleResult{AgentId: res.AgentID, Status: string(res.Status)}, nil
}

func listSuspensions(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.ListSuspensions)
	list, err := op.Suspensions(ctx, r.GetAgentId(), r.GetOpenOnly())
	if err != nil {
		return nil, err
	}
	out := &remotepb.SuspensionList{AgentId: list.AgentID, Suspensions: make([]*remotepb.Suspension, 0, len(list.Suspensions))}
	for _, rec := range list.Suspensions {
		data, err := json.Marshal(rec)
		if err != nil {
			return nil, err
		}
		state := "open"
		if !rec.Open() {
			state = string(rec.Resolution)
		}
		out.Suspensions = append(out.Suspensions, &remotepb.Suspension{AgentId: rec.AgentID, SuspensionId: rec.ID,
			State: state, RecordJson: data})
	}
	return out, nil
}

func respondSuspension(ctx context.Context, op control.Operator, who control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.RespondSuspension)
	res, err := op.Respond(ctx, who, r.GetAgentId(), r.GetSuspensionId(), r.GetValue(), r.GetMetadata())
	if err != nil {
		return nil, err
	}
	return suspensionResult(r.GetAgentId(), r.GetSuspensionId(), res)
}

func cancelSuspension(ctx context.Context, op control.Operator, who control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.CancelSuspension)
	res, err := op.CancelSuspension(ctx, who, r.GetAgentId(), r.GetSuspensionId(), r.GetReason())
	if err != nil {
		return nil, err
	}
	return suspensionResult(r.GetAgentId(), r.GetSuspensionId(), res)
}

func addWorkItem(ctx context.Context, op control.Operator, _ control.Caller, m proto.Message) (proto.Message, error) {
	r := m.(*remotepb.AddWorkItem)
	v, err := op.AddWorkItem(ctx, r.GetAgentId(), r.GetObjective())
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &remotepb.WorkItemAdded{AgentId: r.GetAgentId(), WorkItemId: v.ID, ItemJson: data}, nil
}

func suspensionResult(id, sid string, res control.SuspensionResponse) (proto.Message, error) {
	data, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	return &remotepb.SuspensionResult{AgentId: id, SuspensionId: sid, ResultJson: data}, nil
}

func agentStatus(id, st string, v any) (*remotepb.AgentStatus, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &remotepb.AgentStatus{AgentId: id, Status: st, StatusJson: data}, nil
}

// errorReply is err as the wire Error, mapped like the HTTP API maps it.
func errorReply(err error) *remotepb.Error {
	var e *control.Error
	if !errors.As(err, &e) {
		e = control.AsError(err)
	}
	return &remotepb.Error{Code: e.Kind, Message: e.Message, Hint: e.Hint, HttpStatus: uint32(e.Status), ValidChoices: e.ValidChoices}
}
