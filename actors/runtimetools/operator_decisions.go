package runtimetools

import (
	"encoding/json"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// Refuse answers instead of a tool's Call while the agent's state forbids
// the call; false lets the call run.
type Refuse func(st *agentstate.State) (tools.Result, bool)

// Refusals are the runtime-owned tools' refusals, by name, tried before
// their Call validates the arguments.
var Refusals = map[string]Refuse{
	agentstate.RequestInputToolName: RefuseSecondQuestion,
}

// RefuseSecondQuestion refuses a second RequestOperatorInput in one turn.
func RefuseSecondQuestion(st *agentstate.State) (tools.Result, bool) {
	if st.Turn == nil || st.Turn.Ask == nil {
		return tools.Result{}, false
	}
	return tools.Failure(agentstate.RequestInputToolName, messages.ToolError, tools.ToolError{
		Kind: tools.KindInvalidToolInput, Message: "this turn already asks the operator a question",
		RecoveryHint: "ask one question per turn; put the options of one decision in its choices",
	}), true
}

// Sleep keeps the validated result and journals nothing with it: the turn
// ends in sleep when its result is applied (agentstate.Apply).
func Sleep(*agentstate.State, agentstate.Env, messages.ToolCall) Decision { return Decision{} }

// RequestInput keeps the validated result and journals nothing with it:
// the turn ends suspended on the question when its result is applied.
func RequestInput(*agentstate.State, agentstate.Env, messages.ToolCall) Decision { return Decision{} }

// ShouldAsk journals ShouldRequestInput's engagement decision with the
// validated result, which shows the same decision.
func ShouldAsk(st *agentstate.State, _ agentstate.Env, call messages.ToolCall) Decision {
	var args ShouldAskArgs
	if json.Unmarshal(call.Arguments, &args) != nil {
		return Decision{}
	}
	rec := messages.EngagementDecisionRecorded{Decision: engagementSignals(args).Decide(), CallID: call.ID}
	if st.Turn != nil {
		rec.TurnID = st.Turn.ID
	}
	return Decision{Batch: agentstate.Batch{rec}}
}

// Notify journals NotifyOperator's notification, addressed to the agent's
// boundary (agentstate.NotificationOf), with the validated result; the
// agent sends it on once it is durable.
func Notify(st *agentstate.State, env agentstate.Env, call messages.ToolCall) Decision {
	var args NotifyArgs
	if json.Unmarshal(call.Arguments, &args) != nil {
		return Decision{}
	}
	n := agentstate.NotificationOf(st, env, messages.NotifyAgentTool, args.Message, "")
	return Decision{Batch: agentstate.Batch{messages.OperatorNotificationRequested{Notification: n}}}
}
