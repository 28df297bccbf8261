package agentstate

import (
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// The work queue's activation decisions: when an idle agent takes up its
// work items again, how long an item that makes no progress waits, and
// what a work item's timer does when it fires.

// The activation backoff of a work item whose activations make no
// progress: 30s, 1m, 2m, ... capped at 30m.
const (
	workBackoffBase = 30 * time.Second
	workBackoffCap  = 30 * time.Minute
)

// WorkBackoffDelay is the wait after streak activations without progress.
func WorkBackoffDelay(streak int) time.Duration {
	if streak <= 0 {
		return 0
	}
	d := workBackoffBase
	for i := 1; i < streak && d < workBackoffCap; i++ {
		d *= 2
	}
	return min(d, workBackoffCap)
}

// WorkActivation decides whether an agent idle with nothing queued takes
// up its work queue: a SystemTick to continue its runnable current work
// item, or, without one, to pick one of its queued runnable items (queued
// is true then). Blocked, waiting_for_operator and completed items never
// activate; an asleep, paused, stopped or suspended agent is not
// activated; an item in backoff activates when its backoff timer fires,
// and the batch then schedules that timer if it is not pending yet.
func WorkActivation(st *State, env Env) (b Batch, queued bool) {
	if len(st.WorkItems) == 0 || st.Turn != nil || st.Queue.Len() > 0 || st.PendingWakeHint != nil {
		return nil, false
	}
	switch st.Status {
	case messages.StatusAwakeIdle, messages.StatusAwakeRunning, messages.StatusBooting:
	default:
		return nil, false
	}
	if c := st.CurrentWorkItem(); c != nil && st.Scheduling(c) == SchedRunnable {
		return activation(st, env, c, TickContinue)
	}
	if q := st.QueuedRunnable(); q != nil {
		return activation(st, env, q, TickPick)
	}
	return nil, false
}

// activation queues the tick for r, unless r is in backoff: then it makes
// sure a backoff timer will try again.
func activation(st *State, env Env, r *messages.WorkItemRecord, mode string) (Batch, bool) {
	if b, ok := st.WorkBackoff[r.ID]; ok {
		if due := b.Since.Add(WorkBackoffDelay(b.Streak)); env.Now.Before(due) {
			return backoffTimer(st, env, r.ID, due), false
		}
	}
	text := fmt.Sprintf("Work queue: continue your current work item %s: %s", r.ID, r.Objective)
	if mode == TickPick {
		text = fmt.Sprintf("Work queue: you have no current work item and runnable work is queued (oldest: %s: %s). "+
			"Call %s to focus on one, then work on it.", r.ID, r.Objective, PickWorkItemToolName)
	}
	m := RuntimeEnvelope(env, messages.KindSystemTick, messages.SystemOrigin("work_queue"), messages.SurfaceRuntimeSystem,
		messages.PriorityBackground, text, map[string]string{WorkTickRef: mode, WorkItemRef: r.ID})
	return Batch{messages.MessageAdmitted{Envelope: m}}, true
}

// backoffTimer schedules the timer that ends item id's backoff at due;
// nil when it is already pending.
func backoffTimer(st *State, env Env, id string, due time.Time) Batch {
	for _, ts := range st.Timers {
		if ts.Purpose == messages.TimerWorkItemBackoff && ts.WorkItemID == id && ts.DueAt.Equal(due) {
			return nil
		}
	}
	return Batch{messages.TimerScheduled{TimerID: env.NewID("tmr"), DueAt: due,
		Reason: "retry work item " + id + " after no progress", Purpose: messages.TimerWorkItemBackoff, WorkItemID: id}}
}

// WorkItemTimerFire decides the fire (fired) of a work item's timer ts. A
// backoff timer only retires (activation then retries). A recheck timer of
// an item still blocked with that deadline, not yet consumed, queues a
// low-priority SystemTick naming the item and records the recheck
// consumed, in one batch, so it is delivered once, also across restarts;
// an asleep agent wakes for it.
func WorkItemTimerFire(st *State, env Env, fired messages.TimerFired, ts TimerState) Batch {
	r := st.WorkItemOf(ts.WorkItemID)
	if ts.Purpose != messages.TimerWorkItemRecheck || r == nil || !r.Blocked() || r.RecheckAt == nil ||
		!r.RecheckAt.Equal(ts.DueAt) || r.RecheckConsumedAt != nil {
		return Batch{fired}
	}
	text := fmt.Sprintf("Work queue: recheck the blocker of work item %s (%s): %q. Clear or refresh it with %s "+
		"if it changed; the reminder does not unblock the item.", r.ID, r.Objective, r.BlockedBy, UpdateWorkItemToolName)
	m := RuntimeEnvelope(env, messages.KindSystemTick, messages.SystemOrigin("work_queue"), messages.SurfaceRuntimeSystem,
		messages.PriorityBackground, text, map[string]string{WorkTickRef: TickRecheck, WorkItemRef: r.ID})
	b := Batch{fired,
		messages.WorkItemRecheckConsumed{WorkItemID: r.ID, RecheckAt: *r.RecheckAt, ConsumedAt: env.Now.UTC()},
		messages.MessageAdmitted{Envelope: m}}
	return append(b, WakeOnAdmit(st, "work item recheck")...)
}
