package actors

import (
	"slices"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/tools"
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

// dangling is a call without a result: the call and the index of the
// assistant item that made it.
type dangling struct {
	call  messages.ToolCall
	round int
}

// unanswered returns the calls of conv's assistant items that no result
// right after their item answers, in order. It goes by position, as the
// servers do, so a call id a model reuses in a later round is not taken
// for answered.
func unanswered(conv []providers.Item) []dangling {
	var out []dangling
	for i, it := range conv {
		if it.Kind != providers.ItemAssistant || len(it.ToolCalls) == 0 {
			continue
		}
		answered := make(map[string]bool)
		for j := i + 1; j < len(conv) && conv[j].Kind == providers.ItemToolResult; j++ {
			answered[conv[j].CallID] = true
		}
		for _, c := range it.ToolCalls {
			if !answered[c.ID] {
				out = append(out, dangling{call: c, round: i})
			}
		}
	}
	return out
}

// lostResult is the result recorded for a call of an earlier turn that
// ended without recording one: whether it ran is unknown.
func lostResult(call messages.ToolCall) tools.Result {
	return tools.Failure(call.Name, messages.ToolInterrupted, tools.ToolError{
		Kind:         tools.KindInterrupted,
		Message:      "interrupted: the turn that made this call ended without recording its result; whether it ran is unknown",
		RecoveryHint: "check whether its effect happened before repeating it",
	})
}

// repairConversation journals a result for every call an earlier turn
// left unanswered (a conversation written by a build that ended turns
// without them). The calls of the batch in flight are left to advance,
// which runs or settles them.
func (a *agent) repairConversation() {
	var payloads []messages.Payload
	for _, d := range a.staleUnanswered() {
		res := lostResult(d.call)
		payloads = append(payloads, messages.ToolExecuted{
			CallID: d.call.ID, ToolName: d.call.Name, Status: res.Status, Envelope: res.Envelope, Receipt: res.Receipt,
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
func (a *agent) staleUnanswered() []dangling {
	calls := unanswered(a.state.Conversation)
	if t := a.state.Turn; t == nil || t.AwaitingModel {
		return calls
	}
	last := lastRound(a.state.Conversation)
	return slices.DeleteFunc(calls, func(d dangling) bool { return d.round == last })
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

// answeredRequest returns conv with a result inserted after every call
// that has none. It should find nothing: every path that ends a turn
// answers its calls. It guards the request all the same, since one
// dangling call makes every later request of the agent fail.
func (a *agent) answeredRequest(conv []providers.Item) []providers.Item {
	missing := unanswered(conv)
	if len(missing) == 0 {
		return conv
	}
	a.deps.Log.Error().Str("agent_id", a.id).Int("calls", len(missing)).Msg("request had unanswered tool calls; answered in the request only")
	out := slices.Clone(conv)
	for n, d := range missing { // each insert shifts the later rounds by one
		res := lostResult(d.call)
		out = agentstate.InsertAfterRound(out, d.round+n, providers.Item{
			Kind: providers.ItemToolResult, CallID: d.call.ID, ToolName: d.call.Name, Text: res.Receipt, IsError: true,
		})
	}
	return out
}
