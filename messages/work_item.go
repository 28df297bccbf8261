package messages

import (
	"strings"
	"time"
)

// WorkItemState is the lifecycle state of a work item. Current focus is not
// a state: the owning agent's current_work_item_id points at it.
type WorkItemState string

// The work item states.
const (
	WorkItemStateOpen      WorkItemState = "open"
	WorkItemStateCompleted WorkItemState = "completed"
)

var workItemStates = enum[WorkItemState]{name: "work item state", values: []WorkItemState{WorkItemStateOpen, WorkItemStateCompleted}}

// String returns the WorkItemState as spelled in JSON.
func (s WorkItemState) String() string { return string(s) }

// Valid reports whether s is a work item state.
func (s WorkItemState) Valid() bool { return workItemStates.valid(s) }

// UnmarshalText parses a work item state, rejecting unknown values.
func (s *WorkItemState) UnmarshalText(text []byte) error { return workItemStates.unmarshal(s, text) }

// ParseWorkItemState returns the WorkItemState spelled s or an error
// wrapping ErrUnknownValue.
func ParseWorkItemState(s string) (WorkItemState, error) { return workItemStates.parse(s) }

// PlanStatus is how far a work item's plan is.
type PlanStatus string

// The plan statuses.
const (
	PlanDraft      PlanStatus = "draft"       // still being worked out
	PlanReady      PlanStatus = "ready"       // ready to execute
	PlanNeedsInput PlanStatus = "needs_input" // waiting for the operator
)

var planStatuses = enum[PlanStatus]{name: "plan status", values: []PlanStatus{PlanDraft, PlanReady, PlanNeedsInput}}

// String returns the PlanStatus as spelled in JSON.
func (p PlanStatus) String() string { return string(p) }

// Valid reports whether p is a plan status.
func (p PlanStatus) Valid() bool { return planStatuses.valid(p) }

// UnmarshalText parses a plan status, rejecting unknown values.
func (p *PlanStatus) UnmarshalText(text []byte) error { return planStatuses.unmarshal(p, text) }

// ParsePlanStatus returns the PlanStatus spelled s or an error wrapping
// ErrUnknownValue.
func ParsePlanStatus(s string) (PlanStatus, error) { return planStatuses.parse(s) }

// TodoState is the state of one checklist entry of a work item.
type TodoState string

// The todo states.
const (
	TodoPending    TodoState = "pending"
	TodoInProgress TodoState = "in_progress"
	TodoCompleted  TodoState = "completed"
)

var todoStates = enum[TodoState]{name: "todo state", values: []TodoState{TodoPending, TodoInProgress, TodoCompleted}}

// String returns the TodoState as spelled in JSON.
func (t TodoState) String() string { return string(t) }

// Valid reports whether t is a todo state.
func (t TodoState) Valid() bool { return todoStates.valid(t) }

// UnmarshalText parses a todo state, rejecting unknown values.
func (t *TodoState) UnmarshalText(text []byte) error { return todoStates.unmarshal(t, text) }

// ParseTodoState returns the TodoState spelled s or an error wrapping
// ErrUnknownValue.
func ParseTodoState(s string) (TodoState, error) { return todoStates.parse(s) }

// TimerPurpose marks a timer the runtime owns for a work item; the zero
// value is an ordinary timer (a sleep, a suspension deadline).
type TimerPurpose string

// The timer purposes.
const (
	// TimerWorkItemRecheck is a blocked work item's one-shot recheck
	// reminder: its fire queues a low-priority SystemTick naming the item.
	TimerWorkItemRecheck TimerPurpose = "work_item_recheck"
	// TimerWorkItemBackoff ends the backoff of a work item whose last
	// activation made no progress: its fire only lets activation retry.
	TimerWorkItemBackoff TimerPurpose = "work_item_backoff"
)

var timerPurposes = enum[TimerPurpose]{name: "timer purpose", values: []TimerPurpose{TimerWorkItemRecheck, TimerWorkItemBackoff}}

// String returns the TimerPurpose as spelled in JSON.
func (p TimerPurpose) String() string { return string(p) }

// Valid reports whether p is a timer purpose.
func (p TimerPurpose) Valid() bool { return timerPurposes.valid(p) }

// UnmarshalText parses a timer purpose, rejecting unknown values.
func (p *TimerPurpose) UnmarshalText(text []byte) error { return timerPurposes.unmarshal(p, text) }

// ParseTimerPurpose returns the TimerPurpose spelled s or an error wrapping
// ErrUnknownValue.
func ParseTimerPurpose(s string) (TimerPurpose, error) { return timerPurposes.parse(s) }

// TodoItem is one checklist entry of a work item.
type TodoItem struct {
	Text  string    `json:"text"`
	State TodoState `json:"state"`
}

// WorkItemRecord is the persisted record of one high-level objective of an
// agent. The plan body is not here: it lives in the agent home's plan
// artifact (work-items/<id>/plan.md).
type WorkItemRecord struct {
	ID          string        `json:"id"`
	AgentID     string        `json:"agent_id"`
	WorkspaceID string        `json:"workspace_id,omitempty"`
	Objective   string        `json:"objective"`
	State       WorkItemState `json:"state"`
	PlanStatus  PlanStatus    `json:"plan_status"`
	TodoList    []TodoItem    `json:"todo_list"`
	BlockedBy   string        `json:"blocked_by,omitempty"`
	RecheckAt   *time.Time    `json:"recheck_at,omitempty"`
	// RecheckConsumedAt records that the current RecheckAt reminder was
	// delivered; it is cleared with the blocker.
	RecheckConsumedAt *time.Time `json:"recheck_consumed_at,omitempty"`
	ResultSummary     string     `json:"result_summary,omitempty"`
	CreatedAt         time.Time  `json:"created_at"`
	UpdatedAt         time.Time  `json:"updated_at"`
}

// Validate checks the record's identity and enums.
func (r WorkItemRecord) Validate() error {
	switch {
	case r.ID == "":
		return fieldError(ErrInvalidEvent, "record.id", "is empty")
	case r.AgentID == "":
		return fieldError(ErrInvalidEvent, "record.agent_id", "is empty")
	case strings.TrimSpace(r.Objective) == "":
		return fieldError(ErrInvalidEvent, "record.objective", "is empty")
	case !r.State.Valid():
		return fieldError(ErrInvalidEvent, "record.state", "is not a work item state")
	case !r.PlanStatus.Valid():
		return fieldError(ErrInvalidEvent, "record.plan_status", "is not a plan status")
	case r.BlockedBy == "" && (r.RecheckAt != nil || r.RecheckConsumedAt != nil):
		return fieldError(ErrInvalidEvent, "record.recheck_at", "is set without blocked_by")
	}
	for _, t := range r.TodoList {
		if strings.TrimSpace(t.Text) == "" || !t.State.Valid() {
			return fieldError(ErrInvalidEvent, "record.todo_list", "every todo needs text and a todo state")
		}
	}
	return nil
}

// Open reports whether the item is still open.
func (r *WorkItemRecord) Open() bool { return r.State == WorkItemStateOpen }

// Blocked reports whether the open item has a blocker.
func (r *WorkItemRecord) Blocked() bool { return r.Open() && r.BlockedBy != "" }

// Clone returns a deep copy of r.
func (r WorkItemRecord) Clone() WorkItemRecord {
	r.TodoList = append([]TodoItem(nil), r.TodoList...)
	if r.RecheckAt != nil {
		t := *r.RecheckAt
		r.RecheckAt = &t
	}
	if r.RecheckConsumedAt != nil {
		t := *r.RecheckConsumedAt
		r.RecheckConsumedAt = &t
	}
	return r
}

// DeliverySummaryRecord is the operator-facing report of a completed work
// item: the assistant text of the round whose one CompleteWorkItem call
// completed it.
type DeliverySummaryRecord struct {
	WorkItemID string    `json:"work_item_id"`
	Text       string    `json:"text"`
	TurnID     string    `json:"turn_id"`
	CreatedAt  time.Time `json:"created_at"`
}
