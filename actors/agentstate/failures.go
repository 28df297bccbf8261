package agentstate

import (
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// The failure codes of turns the runtime ends.
const (
	// CodeTokenBudget ends a turn whose agent (or an ancestor) spent its
	// token budget.
	CodeTokenBudget = "token_budget_exhausted"
	// CodeLoopBreaker ends a turn whose model repeats itself.
	CodeLoopBreaker = "loop_breaker_tripped"
	// CodeAgentStopped ends a turn its operator stopped the agent during.
	CodeAgentStopped = "agent_stopped"
	// CodeTurnInterrupted ends a turn its operator interrupted.
	CodeTurnInterrupted = "turn_interrupted"
	// CodeAgentRestarted ends a turn whose agent panicked during it.
	CodeAgentRestarted = "agent_restarted"
	// CodeSupervisionStopped ends a child's turn its supervising agent
	// stopped.
	CodeSupervisionStopped = "supervision_stopped"
	// CodeModelRetryCancelled ends a turn whose model retry the operator
	// cancelled.
	CodeModelRetryCancelled = "model_retry_cancelled"
)

// RuntimeFailure is a failure of the runtime's own making: code, and one
// summary for the operator and the audit record alike.
func RuntimeFailure(code, summary string) messages.Failure {
	return messages.Failure{Category: messages.FailureRuntime, Code: code, Message: summary, Summary: summary}
}

// OperatorCaused reports a failure code of a turn its operator (or its
// supervising parent) ended: nobody is notified of those.
func OperatorCaused(code string) bool {
	switch code {
	case CodeAgentStopped, CodeSupervisionStopped, CodeTurnInterrupted, CodeModelRetryCancelled:
		return true
	}
	return false
}

// FailureNotice is the operator notification reason of a failed turn.
func FailureNotice(code string) string {
	switch code {
	case CodeTokenBudget:
		return messages.NotifyTokenBudget
	case CodeLoopBreaker:
		return messages.NotifyLoopBreaker
	}
	return messages.NotifyTurnFailed
}

// endReason says in a few words why a turn ended with failure f, for the
// results of the calls it cut short.
func endReason(f messages.Failure) string {
	switch f.Code {
	case CodeTurnInterrupted:
		return "the operator interrupted the turn"
	case CodeAgentStopped:
		return "the operator stopped the agent"
	case CodeSupervisionStopped:
		return "its supervising agent stopped it"
	case CodeAgentRestarted:
		return "the agent crashed and was restarted"
	}
	return "the turn failed: " + f.Code
}

// kindNotRun is the error kind of a call the turn ended before it started.
const kindNotRun = "not_run"

// unansweredResult is the result recorded for a call the turn ended
// without: interrupted while it ran (its command, if any, was killed with
// the turn's context), or not run at all.
func unansweredResult(call messages.ToolCall, started bool, why string) tools.Result {
	if started {
		return tools.Failure(call.Name, messages.ToolInterrupted, tools.ToolError{
			Kind:         tools.KindInterrupted,
			Message:      "interrupted before this call finished (" + why + "); it was cancelled and any command it ran was killed",
			RecoveryHint: "check whether its effect happened before repeating it",
		})
	}
	return tools.Failure(call.Name, messages.ToolInterrupted, tools.ToolError{
		Kind:         kindNotRun,
		Message:      "not run: the turn ended before this call started (" + why + ")",
		RecoveryHint: "call it again if it is still needed",
	})
}
