package messages

import "fmt"

// ClosureOutcome is the semantic source of truth for how a turn settled.
type ClosureOutcome string

// The closure outcomes.
const (
	OutcomeCompleted   ClosureOutcome = "completed"   // an observed terminal turn finished the work
	OutcomeContinuable ClosureOutcome = "continuable" // settled, but persisted work warrants a runtime follow-up
	OutcomeFailed      ClosureOutcome = "failed"      // a runtime or provider failure ended the turn
	OutcomeWaiting     ClosureOutcome = "waiting"     // blocked on the WaitingReason
)

var closureOutcomes = enum[ClosureOutcome]{name: "closure outcome", values: []ClosureOutcome{
	OutcomeCompleted, OutcomeContinuable, OutcomeFailed, OutcomeWaiting,
}}

// String returns the ClosureOutcome as spelled in JSON.
func (o ClosureOutcome) String() string { return string(o) }

// Valid reports whether o is one of the spec's closure outcomes.
func (o ClosureOutcome) Valid() bool { return closureOutcomes.valid(o) }

// UnmarshalText parses a closure outcome, rejecting unknown values.
func (o *ClosureOutcome) UnmarshalText(text []byte) error { return closureOutcomes.unmarshal(o, text) }

// ParseClosureOutcome returns the ClosureOutcome spelled s or an error
// wrapping ErrUnknownValue.
func ParseClosureOutcome(s string) (ClosureOutcome, error) { return closureOutcomes.parse(s) }

// WaitingReason says what a waiting agent waits for.
type WaitingReason string

// The waiting reasons.
const (
	AwaitingOperatorInput  WaitingReason = "awaiting_operator_input"
	AwaitingExternalChange WaitingReason = "awaiting_external_change"
	AwaitingTaskResult     WaitingReason = "awaiting_task_result"
	AwaitingTimer          WaitingReason = "awaiting_timer"
)

var waitingReasons = enum[WaitingReason]{name: "waiting reason", values: []WaitingReason{
	AwaitingOperatorInput, AwaitingExternalChange, AwaitingTaskResult, AwaitingTimer,
}}

// String returns the WaitingReason as spelled in JSON.
func (r WaitingReason) String() string { return string(r) }

// Valid reports whether r is one of the spec's waiting reasons.
func (r WaitingReason) Valid() bool { return waitingReasons.valid(r) }

// UnmarshalText parses a waiting reason, rejecting unknown values.
func (r *WaitingReason) UnmarshalText(text []byte) error { return waitingReasons.unmarshal(r, text) }

// ParseWaitingReason returns the WaitingReason spelled s or an error wrapping
// ErrUnknownValue.
func ParseWaitingReason(s string) (WaitingReason, error) { return waitingReasons.parse(s) }

// TurnTerminalKind says how a turn became terminal, from runtime facts.
type TurnTerminalKind string

// The turn terminal kinds.
const (
	// TerminalCompleted: the provider/tool loop drained without a failure.
	TerminalCompleted TurnTerminalKind = "completed"
	// TerminalAborted: a runtime/provider failure or an explicit abort.
	TerminalAborted TurnTerminalKind = "aborted"
	// TerminalInterrupted: shutdown stopped the turn; it is replayed on restart.
	TerminalInterrupted TurnTerminalKind = "interrupted"
)

var turnTerminalKinds = enum[TurnTerminalKind]{name: "turn terminal kind", values: []TurnTerminalKind{
	TerminalCompleted, TerminalAborted, TerminalInterrupted,
}}

// String returns the TurnTerminalKind as spelled in JSON.
func (k TurnTerminalKind) String() string { return string(k) }

// Valid reports whether k is one of the spec's turn terminal kinds.
func (k TurnTerminalKind) Valid() bool { return turnTerminalKinds.valid(k) }

// UnmarshalText parses a turn terminal kind, rejecting unknown values.
func (k *TurnTerminalKind) UnmarshalText(text []byte) error {
	return turnTerminalKinds.unmarshal(k, text)
}

// ParseTurnTerminalKind returns the TurnTerminalKind spelled s or an error
// wrapping ErrUnknownValue.
func ParseTurnTerminalKind(s string) (TurnTerminalKind, error) { return turnTerminalKinds.parse(s) }

// Closure is the closure decision derived when a turn settles.
// WaitingReason is set exactly when Outcome is OutcomeWaiting.
type Closure struct {
	Outcome       ClosureOutcome `json:"outcome"`
	WaitingReason WaitingReason  `json:"waiting_reason,omitempty"`
	// WorkSignal names the persisted work that makes a continuable
	// closure continuable; set exactly when Outcome is OutcomeContinuable.
	WorkSignal *WorkSignal `json:"work_signal,omitempty"`
}

// WorkSignal is the work item a continuable closure continues with: the
// current one (active, continue_active) or a queued runnable one (queued,
// activate_queued: visible to the model, which must pick it; the runtime
// does not change the current work item for it).
type WorkSignal struct {
	WorkItemID       string `json:"work_item_id"`
	Status           string `json:"status"`            // active, queued
	ReactivationMode string `json:"reactivation_mode"` // continue_active, activate_queued
}

// The work signal statuses and reactivation modes.
const (
	WorkSignalActive         = "active"
	WorkSignalQueued         = "queued"
	ReactivateContinueActive = "continue_active"
	ReactivateActivateQueued = "activate_queued"
)

// Validate reports the first malformed field of c, named by its JSON key and
// wrapping ErrInvalidClosure.
func (c Closure) Validate() error {
	switch {
	case !c.Outcome.Valid():
		return fieldError(ErrInvalidClosure, "outcome", fmt.Sprintf("%q is not a closure outcome", c.Outcome))
	case c.Outcome == OutcomeWaiting && !c.WaitingReason.Valid():
		return fieldError(ErrInvalidClosure, "waiting_reason", fmt.Sprintf("%q is not a waiting reason", c.WaitingReason))
	case c.Outcome != OutcomeWaiting && c.WaitingReason != "":
		return fieldError(ErrInvalidClosure, "waiting_reason", "is set but outcome is "+string(c.Outcome))
	case c.Outcome == OutcomeContinuable && c.WorkSignal == nil:
		return fieldError(ErrInvalidClosure, "work_signal", "is missing but outcome is continuable")
	case c.Outcome != OutcomeContinuable && c.WorkSignal != nil:
		return fieldError(ErrInvalidClosure, "work_signal", "is set but outcome is "+string(c.Outcome))
	case c.WorkSignal != nil && c.WorkSignal.WorkItemID == "":
		return fieldError(ErrInvalidClosure, "work_signal", "names no work item")
	case c.WorkSignal != nil && !validSignal(*c.WorkSignal):
		return fieldError(ErrInvalidClosure, "work_signal", fmt.Sprintf("status %q with reactivation_mode %q: want active/continue_active or queued/activate_queued",
			c.WorkSignal.Status, c.WorkSignal.ReactivationMode))
	}
	return nil
}

func validSignal(w WorkSignal) bool {
	return w.Status == WorkSignalActive && w.ReactivationMode == ReactivateContinueActive ||
		w.Status == WorkSignalQueued && w.ReactivationMode == ReactivateActivateQueued
}

// Continuation is the continuation resolution recorded when a message starts
// processing: how the trigger relates to the closure that existed before it.
type Continuation struct {
	TriggerKind          TriggerKind    `json:"trigger_kind"`
	ModelVisible         bool           `json:"model_visible"`
	PriorClosureOutcome  ClosureOutcome `json:"prior_closure_outcome"`
	PriorWaitingReason   WaitingReason  `json:"prior_waiting_reason,omitempty"`
	MatchedWaitingReason bool           `json:"matched_waiting_reason"`
	Evidence             []string       `json:"evidence,omitempty"`
}
