package agentstate

import (
	"github.com/holon-actors/holon-actors/messages"
)

// OpenFact names one reason an agent must be active after a restart.
type OpenFact string

// The open facts. This is the one table recovery consults: an agent with
// any of them is re-activated at boot without an outside request. Later
// layers add their rows here (pending timers, pending wake hints, awaited
// tasks, operator waits, children, runnable work items, notifications).
const (
	// FactQueuedMessages: admitted messages not yet processed.
	FactQueuedMessages OpenFact = "queued_messages"
	// FactTurnInFlight: a turn cut by the restart, resumed from its last
	// durable step.
	FactTurnInFlight OpenFact = "turn_in_flight"
	// FactPendingTimer: a timer that must be re-armed (and fires at once
	// if it came due while the runtime was down).
	FactPendingTimer OpenFact = "pending_timer"
	// FactPendingWakeHint: a wake hint not yet taken as a SystemTick.
	FactPendingWakeHint OpenFact = "pending_wake_hint"
	// FactActiveTask: a background task (task_started without
	// task_finished). After a runtime restart its process cannot be
	// reattached: recovery kills its orphans, records it interrupted and
	// delivers its task_result.
	FactActiveTask OpenFact = "active_task"
	// FactRunnableWorkItem: a runnable current or queued work item that
	// the work queue activates (work_queue.go).
	FactRunnableWorkItem OpenFact = "runnable_work_item"
)

// OpenFacts lists the open facts of st. A stopped agent has none: it stays
// stopped until an operator resumes it.
func OpenFacts(st *State) []OpenFact {
	if st.Status == messages.StatusStopped || st.Status == messages.StatusArchived {
		return nil
	}
	var facts []OpenFact
	if st.Queue.Len() > 0 {
		facts = append(facts, FactQueuedMessages)
	}
	if st.Turn != nil {
		facts = append(facts, FactTurnInFlight)
	}
	if len(st.Timers) > 0 || hasArmedUserTimer(st) {
		facts = append(facts, FactPendingTimer)
	}
	if st.PendingWakeHint != nil {
		facts = append(facts, FactPendingWakeHint)
	}
	if len(st.OpenTasks()) > 0 {
		facts = append(facts, FactActiveTask)
	}
	if st.hasActivatableWork() {
		facts = append(facts, FactRunnableWorkItem)
	}
	return facts
}
