package actors

import (
	"encoding/json"
	"slices"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// runtimeTool is what the agent does with one of its own tools
// (runtimetools.Tools) around the tool's Call, which validates the
// arguments. refuse, when set, answers instead of the call while the
// agent's state forbids it. decide, when set, turns a validated call into
// the result the model sees and the payloads journaled with it
// (toolFinished); without it the validated result stands.
type runtimeTool struct {
	refuse func(a *agent) (tools.Result, bool)
	decide func(a *agent, call messages.ToolCall, valid tools.Result) (tools.Result, []messages.Payload)
}

// runtimeTools are the agent's decisions for its own tools, by name: the
// one place a runtime-owned tool's name selects what the agent does.
var runtimeTools = map[string]runtimeTool{
	agentstate.SleepToolName:            {}, // the turn ends in sleep when its result is applied
	agentstate.RequestInputToolName:     {refuse: (*agent).refuseSecondQuestion},
	agentstate.ShouldAskToolName:        {decide: (*agent).recordEngagement},
	agentstate.NotifyToolName:           {decide: (*agent).notifyFromTool},
	runtimetools.SpawnAgentToolName:     {decide: (*agent).spawnFromTool},
	agentstate.CreateWorkItemToolName:   {decide: workItemDecision((*agent).createWorkItem)},
	agentstate.PickWorkItemToolName:     {decide: workItemDecision((*agent).pickWorkItem)},
	agentstate.UpdateWorkItemToolName:   {decide: workItemDecision((*agent).updateWorkItem)},
	agentstate.CompleteWorkItemToolName: {decide: workItemDecision((*agent).completeWorkItem)},
}

// runRuntimeTool runs a tool the agent owns at once, inside Receive: the
// result and the payloads toolFinished journals with it on success; false
// for any other tool.
func (a *agent) runRuntimeTool(call messages.ToolCall) (tools.Result, []messages.Payload, bool) {
	i := slices.IndexFunc(a.deps.opTools, func(t tools.Tool) bool { return t.Spec().Name == call.Name })
	if i < 0 {
		return tools.Result{}, nil, false
	}
	rt := runtimeTools[call.Name]
	if rt.refuse != nil {
		if res, refused := rt.refuse(a); refused {
			return res, nil, true
		}
	}
	res := callSafely(a.ctx, a.deps.opTools[i], call)
	if res.Status != messages.ToolOK || rt.decide == nil {
		return res, nil, true
	}
	res, payloads := rt.decide(a, call, res)
	return res, payloads, true
}

// refuseSecondQuestion refuses a second RequestOperatorInput in one turn.
func (a *agent) refuseSecondQuestion() (tools.Result, bool) {
	if a.state.Turn.Ask == nil {
		return tools.Result{}, false
	}
	return tools.Failure(agentstate.RequestInputToolName, messages.ToolError, tools.ToolError{
		Kind: tools.KindInvalidToolInput, Message: "this turn already asks the operator a question",
		RecoveryHint: "ask one question per turn; put the options of one decision in its choices",
	}), true
}

// recordEngagement journals ShouldRequestInput's decision with its result.
func (a *agent) recordEngagement(call messages.ToolCall, valid tools.Result) (tools.Result, []messages.Payload) {
	d, ok := resultOf[messages.EngagementDecision](valid)
	if !ok {
		return valid, nil
	}
	return valid, []messages.Payload{messages.EngagementDecisionRecorded{Decision: d, TurnID: a.state.Turn.ID, CallID: call.ID}}
}

// notifyFromTool journals NotifyOperator's notification with its result;
// toolFinished dispatches it once durable.
func (a *agent) notifyFromTool(call messages.ToolCall, valid tools.Result) (tools.Result, []messages.Payload) {
	var args runtimetools.NotifyArgs
	if json.Unmarshal(call.Arguments, &args) != nil {
		return valid, nil
	}
	n := a.operatorNotification(messages.NotifyAgentTool, args.Message, "")
	return valid, []messages.Payload{messages.OperatorNotificationRequested{Notification: n}}
}

// spawnFromTool spawns what a validated SpawnAgent call asks for; a
// private child's supervision task is journaled with the result.
func (a *agent) spawnFromTool(call messages.ToolCall, valid tools.Result) (tools.Result, []messages.Payload) {
	args, ok := resultOf[runtimetools.SpawnAgentArgs](valid) // with the defaults Validate filled in
	if !ok {
		return valid, nil
	}
	res := a.spawn(a.ctx, args)
	if started := a.spawnStarted(call, res); started != nil {
		return res, []messages.Payload{*started}
	}
	return res, nil
}

// workItemDecision adapts a work-item decision to the arguments its tool
// has just accepted.
func workItemDecision[A any](decide func(*agent, A) (tools.Result, []messages.Payload)) func(*agent, messages.ToolCall, tools.Result) (tools.Result, []messages.Payload) {
	return func(a *agent, call messages.ToolCall, _ tools.Result) (tools.Result, []messages.Payload) {
		return decide(a, decodeValid[A](call))
	}
}

// resultOf decodes the result of a tool's success envelope.
func resultOf[T any](res tools.Result) (T, bool) {
	var env struct {
		Result T `json:"result"`
	}
	err := json.Unmarshal(res.Envelope, &env)
	return env.Result, err == nil
}
