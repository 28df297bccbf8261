package actors

import (
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
)

// The activation backoff of a work item whose activations make no
// progress: 30s, 1m, 2m, ... capped at 30m.
const (
	workBackoffBase = 30 * time.Second
	workBackoffCap  = 30 * time.Minute
)

// workBackoffDelay is the wait after streak activations without progress.
func workBackoffDelay(streak int) time.Duration {
	if streak <= 0 {
		return 0
	}
	d := workBackoffBase
	for i := 1; i < streak && d < workBackoffCap; i++ {
		d *= 2
	}
	return min(d, workBackoffCap)
}

// activateWorkQueue queues a work-queue SystemTick when the agent is idle
// with nothing queued: to continue its runnable current work item, or,
// without one, to pick one of its queued runnable items. Blocked,
// waiting_for_operator and completed items never activate; an asleep,
// paused, stopped or suspended agent is not activated; an item in backoff
// activates when its backoff timer fires. false when nothing was queued.
func (a *agent) activateWorkQueue() bool {
	st := a.state
	if len(st.WorkItems) == 0 || st.Turn != nil || st.Queue.Len() > 0 || st.PendingWakeHint != nil {
		return false
	}
	switch st.Status {
	case messages.StatusAwakeIdle, messages.StatusAwakeRunning, messages.StatusBooting:
	default:
		return false
	}
	if c := st.CurrentWorkItem(); c != nil && st.Scheduling(c) == agentstate.SchedRunnable {
		return a.activate(c, agentstate.TickContinue)
	}
	if q := st.QueuedRunnable(); q != nil {
		return a.activate(q, agentstate.TickPick)
	}
	return false
}

// activate queues the tick for r, unless r is in backoff: then it makes
// sure a backoff timer will try again.
func (a *agent) activate(r *messages.WorkItemRecord, mode string) bool {
	if b, ok := a.state.WorkBackoff[r.ID]; ok {
		if due := b.Since.Add(workBackoffDelay(b.Streak)); a.deps.Clock.Now().Before(due) {
			a.ensureBackoffTimer(r.ID, due)
			return false
		}
	}
	text := fmt.Sprintf("Work queue: continue your current work item %s: %s", r.ID, r.Objective)
	if mode == agentstate.TickPick {
		text = fmt.Sprintf("Work queue: you have no current work item and runnable work is queued (oldest: %s: %s). "+
			"Call %s to focus on one, then work on it.", r.ID, r.Objective, agentstate.PickWorkItemToolName)
	}
	env := a.runtimeEnvelope(messages.KindSystemTick, messages.SystemOrigin("work_queue"), messages.SurfaceRuntimeSystem,
		messages.PriorityBackground, text, map[string]string{agentstate.WorkTickRef: mode, agentstate.WorkItemRef: r.ID})
	a.mustPersist(messages.MessageAdmitted{Envelope: env})
	return true
}

// ensureBackoffTimer schedules (durably) the timer that ends item id's
// backoff at due, unless it is already pending.
func (a *agent) ensureBackoffTimer(id string, due time.Time) {
	for _, ts := range a.state.Timers {
		if ts.Purpose == messages.TimerWorkItemBackoff && ts.WorkItemID == id && ts.DueAt.Equal(due) {
			return
		}
	}
	ts := messages.TimerScheduled{TimerID: messages.NewID("tmr"), DueAt: due,
		Reason: "retry work item " + id + " after no progress", Purpose: messages.TimerWorkItemBackoff, WorkItemID: id}
	a.mustPersist(ts)
	a.armTimer(ts.TimerID, ts.DueAt)
}

// workItemTimerFired handles the fire of a work item's timer. A backoff
// timer only retires (activation then retries). A recheck timer of an item
// still blocked with that deadline, not yet consumed, queues a
// low-priority SystemTick naming the item and records the recheck
// consumed, in one batch, so it is delivered once, also across restarts.
func (a *agent) workItemTimerFired(f timers.Fire, ts agentstate.TimerState) {
	fired := messages.TimerFired{TimerID: f.TimerID, FireID: f.FireID}
	r := a.state.WorkItemOf(ts.WorkItemID)
	if ts.Purpose != messages.TimerWorkItemRecheck || r == nil || !r.Blocked() || r.RecheckAt == nil ||
		!r.RecheckAt.Equal(ts.DueAt) || r.RecheckConsumedAt != nil {
		a.mustPersist(fired)
		return
	}
	now := a.deps.Clock.Now().UTC()
	text := fmt.Sprintf("Work queue: recheck the blocker of work item %s (%s): %q. Clear or refresh it with %s "+
		"if it changed; the reminder does not unblock the item.", r.ID, r.Objective, r.BlockedBy, agentstate.UpdateWorkItemToolName)
	env := a.runtimeEnvelope(messages.KindSystemTick, messages.SystemOrigin("work_queue"), messages.SurfaceRuntimeSystem,
		messages.PriorityBackground, text, map[string]string{agentstate.WorkTickRef: agentstate.TickRecheck, agentstate.WorkItemRef: r.ID})
	payloads := []messages.Payload{fired,
		messages.WorkItemRecheckConsumed{WorkItemID: r.ID, RecheckAt: *r.RecheckAt, ConsumedAt: now},
		messages.MessageAdmitted{Envelope: env}}
	if a.state.Status == messages.StatusAsleep {
		payloads = append(payloads, a.statusChange(messages.StatusAwakeIdle, "work item recheck"))
	}
	a.mustPersist(payloads...)
}
