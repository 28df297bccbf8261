package agentstate

import (
	"github.com/holon-actors/holon-actors/messages"
)

// noteOwnNotification records, as the agent's own notification is
// applied, the once-only reports it stands for: the current closure's
// stall (watchdog.go) and the budget warning (budget.go).
func (s *State) noteOwnNotification(n messages.OperatorNotification) {
	if n.RequestedByAgentID != s.ID {
		return
	}
	switch n.Reason {
	case messages.NotifyAgentStalled:
		s.Watchdog.ReportedTurn = s.TurnIndex
	case messages.NotifyTokenBudgetWarning:
		s.Budget.Warned = true
	}
}
