package agentstate

import (
	"slices"
	"time"
)

// NextDue is when the agent must act again with no message from anyone: the
// earliest due time of its timers (suspension deadlines, retries and work
// item rechecks are timers too), now when it has an open fact that is not a
// timer (queued messages, a turn, a task: work to do at once), and zero when
// it has none. A due-time index keeps it to wake agents that are active
// nowhere.
func (s *State) NextDue(now time.Time) time.Time {
	facts := OpenFacts(s)
	if len(facts) == 0 {
		return time.Time{}
	}
	if slices.ContainsFunc(facts, func(f OpenFact) bool { return f != FactPendingTimer }) {
		return now
	}
	var due time.Time
	earliest := func(t time.Time) {
		if !t.IsZero() && (due.IsZero() || t.Before(due)) {
			due = t
		}
	}
	for _, t := range s.Timers {
		earliest(t.DueAt)
	}
	for _, ut := range s.UserTimers {
		if !ut.Paused {
			earliest(ut.NextDueAt)
		}
	}
	if due.IsZero() {
		// A pending timer without a time is due now rather than never.
		return now
	}
	return due
}
