package runtimetools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// MaxPlanBytes bounds the plan a CreateWorkItem call may seed.
const MaxPlanBytes = 256 << 10

// DefaultRecheckAfter is the recheck deadline given to a blocker set
// without recheck_after.
const DefaultRecheckAfter = agentstate.DefaultRecheckAfter

// maxRecheckAfter bounds recheck_after.
const maxRecheckAfter = 30 * 24 * time.Hour

// Bounds of the work-item arguments.
const (
	// MaxObjectiveChars bounds a work item's objective.
	MaxObjectiveChars = 2000
	maxBlockerChars   = 2000
	maxTodoItems      = 100
	maxTodoChars      = 500
)

// TodoArg is one checklist entry.
type TodoArg struct {
	Text  string `json:"text" jsonschema:"What to do, one step."`
	State string `json:"state" jsonschema:"pending, in_progress or completed."`
}

// CreateWorkItemArgs are CreateWorkItem's arguments.
type CreateWorkItemArgs struct {
	Objective  string    `json:"objective" jsonschema:"The high-level objective, one or two sentences."`
	PlanStatus string    `json:"plan_status,omitempty" jsonschema:"draft (default), ready or needs_input (waiting for the operator)."`
	Plan       string    `json:"plan,omitempty" jsonschema:"Initial plan prose; it seeds the work item's plan file, which you edit directly afterwards."`
	TodoList   []TodoArg `json:"todo_list,omitempty" jsonschema:"The initial checklist."`
}

// PickWorkItemArgs are PickWorkItem's arguments.
type PickWorkItemArgs struct {
	WorkItemID string `json:"work_item_id" jsonschema:"The open work item to focus on."`
}

// UpdateWorkItemArgs are UpdateWorkItem's arguments. Omitted or null
// fields are left as they are.
type UpdateWorkItemArgs struct {
	WorkItemID string    `json:"work_item_id" jsonschema:"The open work item to update."`
	Objective  *string   `json:"objective,omitempty" jsonschema:"A new objective; omit or null to keep it."`
	PlanStatus *string   `json:"plan_status,omitempty" jsonschema:"draft, ready or needs_input; omit or null to keep it."`
	TodoList   []TodoArg `json:"todo_list,omitempty" jsonschema:"The whole new checklist (it replaces the old one); omit or null to keep it."`
	BlockedBy  *string   `json:"blocked_by,omitempty" jsonschema:"What blocks the item; an empty string clears the blocker; omit or null to keep it."`
	// RecheckAfter is a delay in milliseconds.
	RecheckAfter *int64 `json:"recheck_after,omitempty" jsonschema:"With a non-empty blocked_by: remind me to recheck the blocker after this many milliseconds (default 30 minutes)."`
}

// CompleteWorkItemArgs are CompleteWorkItem's arguments. There is no
// summary argument: the report is the assistant text of the same round.
type CompleteWorkItemArgs struct {
	WorkItemID string `json:"work_item_id" jsonschema:"The open work item you finished."`
}

var (
	planStatusEnum = []any{"draft", "ready", "needs_input"}
	todoStateEnum  = []any{"pending", "in_progress", "completed"}
)

func adjustTodos(s *jsonschema.Schema) {
	if s != nil && s.Items != nil {
		s.Items.Properties["state"].Enum = todoStateEnum
	}
}

// AdjustSchema adds the enums.
func (CreateWorkItemArgs) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["plan_status"].Enum = planStatusEnum
	adjustTodos(s.Properties["todo_list"])
}

// AdjustSchema adds the enums and the recheck bounds.
func (UpdateWorkItemArgs) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["plan_status"].Enum = append([]any{nil}, planStatusEnum...)
	adjustTodos(s.Properties["todo_list"])
	r := s.Properties["recheck_after"]
	r.Minimum, r.Maximum = Ptr(1.0), Ptr(float64(maxRecheckAfter.Milliseconds()))
}

// Validate checks the objective and the checklist.
func (a *CreateWorkItemArgs) Validate() error {
	if err := checkObjective(a.Objective); err != nil {
		return err
	}
	if len(a.Plan) > MaxPlanBytes {
		return &tools.FieldError{Field: "plan", Problem: fmt.Sprintf("is longer than %d bytes", MaxPlanBytes),
			Hint: "seed a short plan and extend the plan file directly"}
	}
	return checkTodos(a.TodoList)
}

// Validate checks the changed fields.
func (a *UpdateWorkItemArgs) Validate() error {
	if a.Objective != nil {
		if err := checkObjective(*a.Objective); err != nil {
			return err
		}
	}
	if a.BlockedBy != nil && len(*a.BlockedBy) > maxBlockerChars {
		return &tools.FieldError{Field: "blocked_by", Problem: fmt.Sprintf("is longer than %d characters", maxBlockerChars)}
	}
	if a.RecheckAfter != nil && (a.BlockedBy == nil || strings.TrimSpace(*a.BlockedBy) == "") {
		return &tools.FieldError{Field: "recheck_after", Problem: "applies only when setting a non-empty blocked_by",
			Hint: "send blocked_by with recheck_after, or omit recheck_after"}
	}
	if a.Objective == nil && a.PlanStatus == nil && a.TodoList == nil && a.BlockedBy == nil {
		return &tools.FieldError{Field: "work_item_id", Problem: "nothing to update",
			Hint: "send at least one of objective, plan_status, todo_list, blocked_by; edit the plan file directly"}
	}
	return checkTodos(a.TodoList)
}

func checkObjective(o string) error {
	switch o = strings.TrimSpace(o); {
	case o == "":
		return &tools.FieldError{Field: "objective", Problem: "is empty", Hint: "state the objective in a sentence"}
	case len(o) > MaxObjectiveChars:
		return &tools.FieldError{Field: "objective", Problem: fmt.Sprintf("is longer than %d characters", MaxObjectiveChars),
			Hint: "keep the objective short; put details in the plan"}
	}
	return nil
}

func checkTodos(ts []TodoArg) error {
	if len(ts) > maxTodoItems {
		return &tools.FieldError{Field: "todo_list", Problem: fmt.Sprintf("has more than %d items", maxTodoItems)}
	}
	for i, t := range ts {
		if strings.TrimSpace(t.Text) == "" || len(t.Text) > maxTodoChars {
			return &tools.FieldError{Field: fmt.Sprintf("todo_list[%d].text", i),
				Problem: fmt.Sprintf("must be 1..%d characters", maxTodoChars)}
		}
		if !messages.TodoState(t.State).Valid() {
			return &tools.FieldError{Field: fmt.Sprintf("todo_list[%d].state", i), Problem: "is not pending, in_progress or completed"}
		}
	}
	return nil
}

func TodoItems(ts []TodoArg) []messages.TodoItem {
	out := make([]messages.TodoItem, len(ts))
	for i, t := range ts {
		out[i] = messages.TodoItem{Text: strings.TrimSpace(t.Text), State: messages.TodoState(t.State)}
	}
	return out
}

// workItemToolset are the work-item tools. Their run functions only
// validate and echo: the agent decides them (actors' runtime_tools.go).
var workItemToolset = []tools.Tool{
	tools.Typed(agentstate.CreateWorkItemToolName,
		"Create a durable work item for a high-level objective (optionally with a plan and a checklist). It is "+
			"queued, not focused: call "+agentstate.PickWorkItemToolName+" to make it your current work item.",
		echoArgs[CreateWorkItemArgs](agentstate.CreateWorkItemToolName)),
	tools.Typed(agentstate.PickWorkItemToolName,
		"Make an open work item your current focus. The runtime keeps you working on the current item until it is "+
			"completed, blocked or waiting for the operator.",
		echoArgs[PickWorkItemArgs](agentstate.PickWorkItemToolName)),
	tools.Typed(agentstate.UpdateWorkItemToolName,
		"Record bookkeeping on an open work item after material progress: plan_status, the whole todo_list, or a "+
			"blocker (blocked_by, with an optional recheck_after reminder; an empty blocked_by clears it). Plan "+
			"changes go in the plan file itself.",
		echoArgs[UpdateWorkItemArgs](agentstate.UpdateWorkItemToolName)),
	tools.Typed(agentstate.CompleteWorkItemToolName,
		"Mark a work item completed. Write the operator-facing completion report as your text in the same reply "+
			"as this call: that text becomes the item's result summary and delivery report.",
		echoArgs[CompleteWorkItemArgs](agentstate.CompleteWorkItemToolName)),
}

func echoArgs[A any](name string) func(context.Context, A) tools.Result {
	return func(_ context.Context, a A) tools.Result { return tools.Success(name, "validated", a) }
}
