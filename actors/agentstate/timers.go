package agentstate

import (
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// The refusals of the timer decisions; each wrapping error says which
// field was wrong and what to send instead.
var (
	// ErrTimerInvalid is a timer request with a bad field.
	ErrTimerInvalid = errors.New("invalid timer")
	// ErrTooManyTimers is a timer over the agent's limit of timers.
	ErrTooManyTimers = errors.New("too many timers")
	// ErrTimerTooFrequent is a recurring timer firing more often than the
	// minimum interval.
	ErrTimerTooFrequent = errors.New("timer fires too often")
	// ErrTimerNotFound is a timer id the agent does not have.
	ErrTimerNotFound = errors.New("no such timer")
)

// The defaults of TimerLimits.
const (
	DefaultMaxTimers        = 20
	DefaultMinTimerInterval = time.Minute
	// RunAllCap bounds the fires run_all delivers at once after downtime.
	RunAllCap = 10
	// TimerGrace is how late a fire may be and still count as on time for
	// the skip policy.
	TimerGrace = time.Minute
)

func (l TimerLimits) max() int {
	if l.MaxPerAgent > 0 {
		return l.MaxPerAgent
	}
	return DefaultMaxTimers
}

func (l TimerLimits) minInterval() time.Duration {
	if l.MinInterval > 0 {
		return l.MinInterval
	}
	return DefaultMinTimerInterval
}

// TimerFireID is the id of the fire of timer id due at due, the same as
// the timer service's: id@due in Unix nanoseconds.
func TimerFireID(id string, due time.Time) string {
	return id + "@" + strconv.FormatInt(due.UnixNano(), 10)
}

// ArmedTimer is a created timer to arm on the timer service.
type ArmedTimer struct {
	TimerID string
	DueAt   time.Time
}

// ArmedUserTimers are the created timers that wait for a fire (not
// paused), by due time.
func ArmedUserTimers(st *State) []ArmedTimer {
	out := make([]ArmedTimer, 0, len(st.UserTimers))
	for id, ut := range st.UserTimers {
		if !ut.Paused {
			out = append(out, ArmedTimer{TimerID: id, DueAt: ut.NextDueAt})
		}
	}
	slices.SortFunc(out, func(a, b ArmedTimer) int {
		if c := a.DueAt.Compare(b.DueAt); c != 0 {
			return c
		}
		return compareStrings(a.TimerID, b.TimerID)
	})
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// applyTimerCreated adds a created timer.
func (s *State) applyTimerCreated(p messages.TimerCreated) {
	if s.UserTimers == nil {
		s.UserTimers = make(map[string]*UserTimer)
	}
	s.UserTimers[p.Record.TimerID] = &UserTimer{Record: p.Record, NextDueAt: p.DueAt}
}

// applyUserTimerFired moves a created timer past its fire, or ends it;
// false when p is not a created timer's.
func (s *State) applyUserTimerFired(p messages.TimerFired, at time.Time) bool {
	ut, ok := s.UserTimers[p.TimerID]
	if !ok {
		return false
	}
	ut.LastFireAt, ut.LastFireID = &at, p.FireID
	if p.Delivered > 0 {
		ut.Unreported, ut.LastMessageID = 0, p.MessageID
	} else {
		ut.Unreported += p.Skipped
	}
	if p.Manual {
		return true
	}
	ut.Fires += p.Delivered
	if p.NextDueAt == nil {
		s.dropUserTimer(p.TimerID)
		return true
	}
	ut.NextDueAt = *p.NextDueAt
	return true
}

// dropUserTimer removes a created timer.
func (s *State) dropUserTimer(id string) {
	delete(s.UserTimers, id)
	if len(s.UserTimers) == 0 {
		s.UserTimers = nil
	}
}

// applyTimerPaused and applyTimerResumed pause and resume a timer.
func (s *State) applyTimerPaused(p messages.TimerPaused) {
	if ut, ok := s.UserTimers[p.TimerID]; ok {
		ut.Paused = true
	}
}

func (s *State) applyTimerResumed(p messages.TimerResumed) {
	if ut, ok := s.UserTimers[p.TimerID]; ok {
		ut.Paused, ut.NextDueAt = false, p.DueAt
	}
}

// TimerView is a created timer as the operator and the agent see it.
type TimerView struct {
	messages.TimerRecord
	NextDueAt  *time.Time `json:"next_due_at,omitempty"`
	Paused     bool       `json:"paused,omitempty"`
	Fires      int        `json:"fires"`
	LastFireAt *time.Time `json:"last_fire_at,omitempty"`
	Unreported int        `json:"unreported,omitempty"`
}

// TimerViews are the agent's created timers, the next due first (paused
// ones last).
func TimerViews(st *State) []TimerView {
	out := make([]TimerView, 0, len(st.UserTimers))
	for _, ut := range st.UserTimers {
		v := TimerView{TimerRecord: ut.Record, Paused: ut.Paused, Fires: ut.Fires, LastFireAt: ut.LastFireAt, Unreported: ut.Unreported}
		if !ut.Paused {
			due := ut.NextDueAt
			v.NextDueAt = &due
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b TimerView) int {
		switch {
		case a.NextDueAt == nil && b.NextDueAt != nil:
			return 1
		case a.NextDueAt != nil && b.NextDueAt == nil:
			return -1
		case a.NextDueAt != nil && !a.NextDueAt.Equal(*b.NextDueAt):
			return a.NextDueAt.Compare(*b.NextDueAt)
		}
		return compareStrings(a.TimerID, b.TimerID)
	})
	return out
}

// TimerFireInfo is one upcoming fire of a created timer.
type TimerFireInfo struct {
	TimerID string    `json:"timer_id"`
	DueAt   time.Time `json:"due_at"`
	Message string    `json:"message"`
}

// nextTimerFires are the n soonest fires of st's armed created timers.
func nextTimerFires(st *State, n int) []TimerFireInfo {
	armed := ArmedUserTimers(st)
	if len(armed) > n {
		armed = armed[:n]
	}
	if len(armed) == 0 {
		return nil
	}
	out := make([]TimerFireInfo, len(armed))
	for i, a := range armed {
		msg := st.UserTimers[a.TimerID].Record.Message
		if r := []rune(msg); len(r) > 60 {
			msg = string(r[:59]) + "…"
		}
		out[i] = TimerFireInfo{TimerID: a.TimerID, DueAt: a.DueAt, Message: msg}
	}
	return out
}
