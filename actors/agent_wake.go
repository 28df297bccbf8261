package actors

import (
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
)

// armTimer asks the runtime's timer service to fire timer id at due.
func (a *agent) armTimer(id string, due time.Time) {
	a.wire.toTimers(&timers.Schedule{AgentID: a.id, TimerID: id, DueAt: due})
}

// rearmTimers re-arms every pending timer, as after a restart; one that
// came due meanwhile fires at once.
func (a *agent) rearmTimers() {
	for id, ts := range a.state.Timers {
		a.armTimer(id, ts.DueAt)
	}
	a.rearmUserTimers()
}

// timerFired applies one fire of a pending timer, once: the timer_fired
// event removes the timer, so a repeated or stale fire finds nothing. The
// fire becomes a timer_tick message through the queue. A stopped agent
// ignores it; its timers are re-armed on resume.
func (a *agent) timerFired(f timers.Fire) {
	if a.userTimerFired(f) {
		return
	}
	ts, ok := a.state.Timers[f.TimerID]
	if !ok || timers.FireID(f.TimerID, ts.DueAt) != f.FireID || a.state.Status == messages.StatusStopped {
		return
	}
	if ts.SuspensionID != "" {
		a.suspensionDeadline(f, ts)
		return
	}
	if ts.ModelRetry {
		a.modelRetryDue(f)
		return
	}
	if ts.Purpose != "" {
		a.workItemTimerFired(f, ts)
		return
	}
	a.mustCommit(agentstate.TimerTick(a.state, a.env(), messages.TimerFired{TimerID: f.TimerID, FireID: f.FireID}, ts))
}

// WakeDisposition says what a wake hint did.
type WakeDisposition string

// The wake hint dispositions.
const (
	WakeTriggered WakeDisposition = "triggered" // the agent was idle: it takes the hint now
	WakeCoalesced WakeDisposition = "coalesced" // the agent is busy: stored as its pending wake hint
)

// wakeHint records a hint and takes it at once if the agent is idle.
// Hints coalesce into one pending hint while the agent is busy.
func (a *agent) wakeHint(m *WakeHintRequest) *WakeHintResult {
	if a.state.Status == messages.StatusStopped {
		return &WakeHintResult{Err: ErrResumeRequired}
	}
	if err := a.persist(messages.WakeHintRecorded{Source: m.Source, Reason: m.Reason, Contentful: m.Contentful}); err != nil {
		return &WakeHintResult{Err: err}
	}
	if a.isIdle() && a.runnable() {
		return &WakeHintResult{Disposition: WakeTriggered}
	}
	return &WakeHintResult{Disposition: WakeCoalesced}
}
