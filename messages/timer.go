package messages

import "time"

// MissedPolicy says what a recurring timer does with the runs that came
// due while the runtime was down (or the agent stopped).
type MissedPolicy string

// The missed-run policies.
const (
	// MissedSkip drops the runs more than the grace late; the next
	// delivered fire reports how many were skipped.
	MissedSkip MissedPolicy = "skip"
	// MissedRunOnce delivers one fire for all of them, reporting how many
	// and how late (the default).
	MissedRunOnce MissedPolicy = "run_once"
	// MissedRunAll delivers each of them, up to a cap, reporting the rest.
	MissedRunAll MissedPolicy = "run_all"
)

var missedPolicies = enum[MissedPolicy]{name: "missed policy", values: []MissedPolicy{MissedSkip, MissedRunOnce, MissedRunAll}}

// String returns the MissedPolicy as spelled in JSON.
func (p MissedPolicy) String() string { return string(p) }

// Valid reports whether p is a known missed policy.
func (p MissedPolicy) Valid() bool { return missedPolicies.valid(p) }

// UnmarshalText parses a missed policy, rejecting unknown values.
func (p *MissedPolicy) UnmarshalText(text []byte) error { return missedPolicies.unmarshal(p, text) }

// ParseMissedPolicy returns the MissedPolicy spelled s or an error
// wrapping ErrUnknownValue.
func ParseMissedPolicy(s string) (MissedPolicy, error) { return missedPolicies.parse(s) }

// OverlapPolicy says what a timer's fire does while the agent has not yet
// finished with the previous fire's message.
type OverlapPolicy string

// The overlap policies.
const (
	// OverlapQueue delivers the fire unless the previous one still waits
	// in the queue: at most one fire is pending (the default).
	OverlapQueue OverlapPolicy = "queue"
	// OverlapSkip drops the fire while the previous one waits or runs.
	OverlapSkip OverlapPolicy = "skip"
)

var overlapPolicies = enum[OverlapPolicy]{name: "overlap policy", values: []OverlapPolicy{OverlapQueue, OverlapSkip}}

// String returns the OverlapPolicy as spelled in JSON.
func (p OverlapPolicy) String() string { return string(p) }

// Valid reports whether p is a known overlap policy.
func (p OverlapPolicy) Valid() bool { return overlapPolicies.valid(p) }

// UnmarshalText parses an overlap policy, rejecting unknown values.
func (p *OverlapPolicy) UnmarshalText(text []byte) error { return overlapPolicies.unmarshal(p, text) }

// ParseOverlapPolicy returns the OverlapPolicy spelled s or an error
// wrapping ErrUnknownValue.
func ParseOverlapPolicy(s string) (OverlapPolicy, error) { return overlapPolicies.parse(s) }

// TimerRecord is a timer an agent or its operator created: when it fires
// (At once; every EveryMS from Start; or Cron in Zone), what it delivers
// (Message, a runtime-origin timer_tick in band Priority) and until when
// (Until, Count fires). Exactly one of At (without EveryMS), EveryMS and
// Cron sets the schedule; At with EveryMS is the first fire of an every.
type TimerRecord struct {
	TimerID  string     `json:"timer_id"`
	Message  string     `json:"message"`
	Priority Priority   `json:"priority"`
	At       *time.Time `json:"at,omitempty"`
	EveryMS  int64      `json:"every_ms,omitempty"`
	Cron     string     `json:"cron,omitempty"`
	Zone     string     `json:"zone,omitempty"`
	// Start anchors an every: its fires are Start + k·every, k ≥ 1.
	Start time.Time  `json:"start"`
	Until *time.Time `json:"until,omitempty"`
	// Count ends the timer after that many delivered fires; 0 is no end.
	Count   int           `json:"count,omitempty"`
	Missed  MissedPolicy  `json:"missed"`
	Overlap OverlapPolicy `json:"overlap"`
	// CreatedBy is "agent" (its CreateTimer tool) or "operator".
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
}

// Recurring reports a timer that fires more than once.
func (r TimerRecord) Recurring() bool { return r.EveryMS > 0 || r.Cron != "" }

// Validate checks the fields a decoder can check alone.
func (r TimerRecord) Validate() error {
	switch {
	case r.TimerID == "":
		return fieldError(ErrInvalidEvent, "timer_id", "is empty")
	case !r.Priority.Valid():
		return fieldError(ErrInvalidEvent, "priority", "is not a priority")
	case !r.Missed.Valid():
		return fieldError(ErrInvalidEvent, "missed", "is not a missed policy")
	case !r.Overlap.Valid():
		return fieldError(ErrInvalidEvent, "overlap", "is not an overlap policy")
	case r.At == nil && r.EveryMS <= 0 && r.Cron == "":
		return fieldError(ErrInvalidEvent, "at", "a timer needs at, every_ms or cron")
	case r.Cron != "" && (r.EveryMS > 0 || r.Zone == ""):
		return fieldError(ErrInvalidEvent, "cron", "needs a zone and no every_ms")
	}
	return nil
}

// TimerCreated records a new timer and its first due time.
type TimerCreated struct {
	Record TimerRecord `json:"record"`
	DueAt  time.Time   `json:"due_at"`
}

// Validate checks the record.
func (p TimerCreated) Validate() error { return p.Record.Validate() }

// TimerCancelled records a timer cancelled by the agent or its operator
// (By) before its end.
type TimerCancelled struct {
	TimerID string `json:"timer_id"`
	By      string `json:"by"`
	Reason  string `json:"reason,omitempty"`
}

// TimerPaused records an operator's pause of a timer: it does not fire
// until resumed, and the runs it would have had are not owed.
type TimerPaused struct {
	TimerID string `json:"timer_id"`
}

// TimerResumed records the resume of a paused timer and its next due time.
type TimerResumed struct {
	TimerID string    `json:"timer_id"`
	DueAt   time.Time `json:"due_at"`
}

func (TimerCreated) EventType() EventType   { return EventTimerCreated }
func (TimerCancelled) EventType() EventType { return EventTimerCancelled }
func (TimerPaused) EventType() EventType    { return EventTimerPaused }
func (TimerResumed) EventType() EventType   { return EventTimerResumed }
