package agentstate

import (
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// The work queue's decisions (work_queue.go, work_item_tools.go).

// turnWork is the turn-end transition of the turn's bound item: a turn
// that ends waiting on its background tasks (running) blocks it on them; a
// later turn that ends with no task running clears that runtime-set
// blocker. Completion is only ever explicit (CompleteWorkItem); any other
// ending leaves the item as it is.
func TurnEndWork(st *State, env Env, closure messages.Closure, running []string) Batch {
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
		timer = SetBlocker(&rec, TaskWaitBlocker+": "+strings.Join(running, ", "), now, DefaultRecheckAfter, env.NewID)
	case strings.HasPrefix(r.BlockedBy, TaskWaitBlocker) && closure.Outcome != messages.OutcomeWaiting && len(st.OpenTasks()) == 0:
		SetBlocker(&rec, "", now, 0, env.NewID)
	default:
		return nil
	}
	rec.UpdatedAt = now
	return append(Batch{messages.WorkItemUpdated{Record: rec, TurnID: t.ID}}, timer...)
}

// DefaultRecheckAfter is the recheck deadline given to a blocker set
// without recheck_after.
const DefaultRecheckAfter = 30 * time.Minute

// SetBlocker sets (non-empty) or clears (empty) rec's blocker. A set
// blocker gets a fresh recheck deadline after; the timer that delivers it
// is returned, its ID from newID.
func SetBlocker(rec *messages.WorkItemRecord, blocker string, now time.Time, after time.Duration, newID func(string) string) []messages.Payload {
	rec.RecheckConsumedAt = nil
	if rec.BlockedBy = strings.TrimSpace(blocker); rec.BlockedBy == "" {
		rec.RecheckAt = nil
		return nil
	}
	due := now.Add(after)
	rec.RecheckAt = &due
	return []messages.Payload{messages.TimerScheduled{TimerID: newID("tmr"), DueAt: due,
		Reason: "recheck the blocker of work item " + rec.ID, Purpose: messages.TimerWorkItemRecheck, WorkItemID: rec.ID}}
}
