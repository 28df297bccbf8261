package agentstate

import (
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
)

// CodeAgentQuarantined is the failure code of an agent its supervision
// stopped for good after repeated crashes.
const CodeAgentQuarantined = "agent_quarantined"

// Quarantine decides the record of an agent whose supervision gave up on
// it after failures crashes within its restart window, the last with
// reason: a runtime_error for the operator, the durable stopped status
// (from the agent's status as its journal has it) and the primary
// operator's agent_quarantined notification. The next request activates
// the agent stopped, and it answers with resume guidance instead of
// crash-looping.
func Quarantine(st *State, env Env, failures int, reason string) Batch {
	summary := fmt.Sprintf("The agent crashed %d times within its restart window and was quarantined (stopped). "+
		"Last failure: %s. Resume it once the cause is fixed.", failures, reason)
	return Batch{
		messages.RuntimeError{Failure: messages.Failure{Category: messages.FailureRuntime, Code: CodeAgentQuarantined,
			Message: reason, Summary: summary}},
		StatusChange(st, messages.StatusStopped, "quarantined after repeated crashes"),
		messages.OperatorNotificationRequested{Notification: messages.OperatorNotification{
			NotificationID: env.NewID("ntf"), AgentID: env.AgentID, RequestedByAgentID: env.AgentID,
			TargetOperatorBoundary: messages.BoundaryPrimaryOperator, Message: summary,
			Summary: messages.NotificationSummary(summary), Reason: messages.NotifyAgentQuarantined, CreatedAt: env.Now,
		}},
	}
}
