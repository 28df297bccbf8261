package actors

import (
	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// Readiness is the compatibility label projected from a SchedulingState.
type Readiness string

// The readiness labels.
const (
	ReadyRunnable           Readiness = "runnable"
	ReadyWaitingForOperator Readiness = "waiting_for_operator"
	ReadyBlocked            Readiness = "blocked"
	ReadyCompleted          Readiness = "completed"
)

// readiness projects a scheduling state onto the readiness labels.
func readiness(st agentstate.SchedulingState) Readiness {
	switch st {
	case agentstate.SchedRunnable:
		return ReadyRunnable
	case agentstate.SchedWaitingOperator:
		return ReadyWaitingForOperator
	case agentstate.SchedCompleted:
		return ReadyCompleted
	}
	return ReadyBlocked
}
