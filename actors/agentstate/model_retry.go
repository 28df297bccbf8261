package agentstate

import (
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// Pending reports a retry waiting on its timer.
func (r *ModelRetryState) Pending() bool { return r != nil && r.TimerID != "" }

// ModelRetryInfo is the pending retry as status shows it: "retrying at
// DueAt, attempt Attempt". Attempt numbers the model call waiting to run:
// 2 for the first retry of the failed round.
type ModelRetryInfo struct {
	DueAt         time.Time `json:"due_at"`
	Attempt       int       `json:"attempt"`
	FirstFailedAt time.Time `json:"first_failed_at"`
	FailureCode   string    `json:"failure_code"`
	Summary       string    `json:"summary"`
}

// modelRetryInfo is the pending retry of s's turn, nil when none waits.
func (s *State) modelRetryInfo() *ModelRetryInfo {
	if s.Turn == nil || !s.Turn.Retry.Pending() {
		return nil
	}
	r := s.Turn.Retry
	return &ModelRetryInfo{DueAt: r.DueAt, Attempt: r.Attempt + 1, FirstFailedAt: r.FirstFailedAt,
		FailureCode: r.Failure.Code, Summary: r.Failure.Summary}
}

// applyModelRetryScheduled opens (or continues) the turn's retry run and
// records its timer.
func (s *State) applyModelRetryScheduled(p messages.ModelRetryScheduled) {
	if s.Turn == nil || s.Turn.ID != p.TurnID {
		return
	}
	s.Turn.Retry = &ModelRetryState{Attempt: p.Attempt, FirstFailedAt: p.FirstFailedAt, DueAt: p.DueAt,
		TimerID: p.TimerID, Failure: p.Failure}
	if s.Timers == nil {
		s.Timers = make(map[string]TimerState)
	}
	s.Timers[p.TimerID] = TimerState{DueAt: p.DueAt, Reason: fmt.Sprintf("model retry, attempt %d", p.Attempt+1), ModelRetry: true}
}

// releaseModelRetry notes that the retry timer id fired: the round is
// tried again.
func (s *State) releaseModelRetry(id string) {
	if s.Turn != nil && s.Turn.Retry != nil && s.Turn.Retry.TimerID == id {
		s.Turn.Retry.TimerID = ""
	}
}

// dropModelRetryTimer forgets the pending retry timer of a turn that ends
// without it: its fire, if it still comes, finds nothing.
func (s *State) dropModelRetryTimer() {
	if s.Turn != nil && s.Turn.Retry.Pending() {
		delete(s.Timers, s.Turn.Retry.TimerID)
		if len(s.Timers) == 0 {
			s.Timers = nil
		}
	}
}
