package actors

import (
	"strings"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// The work queue's decisions (work_queue.go, work_item_tools.go).

// turnWork is the turn-end transition of the turn's bound item: a turn
// that ends waiting on its background tasks (running) blocks it on them; a
// later turn that ends with no task running clears that runtime-set
// blocker. Completion is only ever explicit (CompleteWorkItem); any other
// ending leaves the item as it is.
func turnWork(st *AgentState, env decideEnv, closure messages.Closure, running []string) batch {
	t := st.Turn
	if t.Work == nil {
		return nil
	}
	r := st.WorkItemOf(t.Work.BoundItemID)
	if r == nil || !r.Open() {
		return nil
	}
	rec, now := r.Clone(), env.Now.UTC()
	var timer []messages.Payload
	switch {
	case closure.WaitingReason == messages.AwaitingTaskResult && r.BlockedBy == "":
		timer = setBlocker(&rec, agentstate.TaskWaitBlocker+": "+strings.Join(running, ", "), now, DefaultRecheckAfter, env.NewID)
	case strings.HasPrefix(r.BlockedBy, agentstate.TaskWaitBlocker) && closure.Outcome != messages.OutcomeWaiting && len(st.OpenTasks()) == 0:
		setBlocker(&rec, "", now, 0, env.NewID)
	default:
		return nil
	}
	rec.UpdatedAt = now
	return append(batch{messages.WorkItemUpdated{Record: rec, TurnID: t.ID}}, timer...)
}
