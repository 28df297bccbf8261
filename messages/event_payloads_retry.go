package messages

import "time"

// ModelRetryScheduled records that a turn's model round failed with a
// retryable failure (rate limit, overload, connection, 5xx) and will be
// tried again at DueAt, on the durable timer TimerID. Attempt counts the
// failed rounds of this retry run (1 for the first), FirstFailedAt is when
// the run began (its horizon is measured from it) and Failure is the last
// failure, as the turn would have failed with it. The turn stays open; the
// timer's timer_fired releases the retry, a completed round ends the run.
type ModelRetryScheduled struct {
	TurnID        string    `json:"turn_id"`
	Round         uint32    `json:"round"`
	Attempt       int       `json:"attempt"`
	TimerID       string    `json:"timer_id"`
	DueAt         time.Time `json:"due_at"`
	FirstFailedAt time.Time `json:"first_failed_at"`
	Failure       Failure   `json:"failure"`
}

func (ModelRetryScheduled) EventType() EventType { return EventModelRetryScheduled }
