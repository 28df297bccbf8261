package actors

import (
	"slices"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// Every tool call the model makes gets exactly one result, right after the
// round that made it. OpenAI-conformant servers refuse a request holding an
// unanswered call (HTTP 400 "An assistant message with 'tool_calls' must be
// followed by tool messages…"), and so every later request of the agent
// would be refused too. unanswered is the one place that finds such calls:
//
//   - a turn that ends before its batch finished (interrupt, stop, a crash
//     of the agent, a failed step) journals a result for each of them in
//     the batch that ends the turn (answerCalls, from failTurnWith);
//   - a conversation broken on disk by an older build is repaired when the
//     agent loads, journaled, so a replay rebuilds the same conversation
//     (repairConversation);
//   - request building checks it once more and answers, in the request
//     only, what a path missed (answeredRequest).

// repairConversation journals a result for every call an earlier turn
// left unanswered (a conversation written by a build that ended turns
// without them). The calls of the batch in flight are left to advance,
// which runs or settles them.
func (a *agent) repairConversation() {
	var payloads []messages.Payload
	for _, d := range a.staleUnanswered() {
		res := agentstate.LostResult(d.Call)
		payloads = append(payloads, messages.ToolExecuted{
			CallID: d.Call.ID, ToolName: d.Call.Name, Status: res.Status, Envelope: res.Envelope, Receipt: res.Receipt,
		})
	}
	if len(payloads) == 0 {
		return
	}
	a.deps.Log.Warn().Str("agent_id", a.id).Int("calls", len(payloads)).Msg("unanswered tool calls repaired")
	a.mustPersist(payloads...)
}

// staleUnanswered is unanswered without the calls of the batch in flight
// (the last round, while the turn has not recorded all its results).
func (a *agent) staleUnanswered() []agentstate.Dangling {
	calls := agentstate.Unanswered(a.state.Conversation)
	if t := a.state.Turn; t == nil || t.AwaitingModel {
		return calls
	}
	last := lastRound(a.state.Conversation)
	return slices.DeleteFunc(calls, func(d agentstate.Dangling) bool { return d.Round == last })
}

// lastRound is the index of conv's last assistant item, -1 without one.
func lastRound(conv []providers.Item) int {
	for i := len(conv) - 1; i >= 0; i-- {
		if conv[i].Kind == providers.ItemAssistant {
			return i
		}
	}
	return -1
}
