package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// DefaultRecheckAfter is the recheck deadline given to a blocker set
// without recheck_after.
const DefaultRecheckAfter = agentstate.DefaultRecheckAfter

// maxRecheckAfter bounds recheck_after.
const maxRecheckAfter = 30 * 24 * time.Hour

// Bounds of the work-item arguments.
const (
	maxObjectiveChars = 2000
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
	r.Minimum, r.Maximum = agentstate.Ptr(1.0), agentstate.Ptr(float64(maxRecheckAfter.Milliseconds()))
}

// Validate checks the objective and the checklist.
func (a *CreateWorkItemArgs) Validate() error {
	if err := checkObjective(a.Objective); err != nil {
		return err
	}
	if len(a.Plan) > maxPlanBytes {
		return &tools.FieldError{Field: "plan", Problem: fmt.Sprintf("is longer than %d bytes", maxPlanBytes),
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
	case len(o) > maxObjectiveChars:
		return &tools.FieldError{Field: "objective", Problem: fmt.Sprintf("is longer than %d characters", maxObjectiveChars),
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

func todoItems(ts []TodoArg) []messages.TodoItem {
	out := make([]messages.TodoItem, len(ts))
	for i, t := range ts {
		out[i] = messages.TodoItem{Text: strings.TrimSpace(t.Text), State: messages.TodoState(t.State)}
	}
	return out
}

// workItemToolset are the work-item tools. Their run functions only
// validate and echo: the agent applies them (runWorkItemTool).
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

// workItemFailure is a work-item tool error that changed nothing.
func workItemFailure(tool, kind, msg, hint string) tools.Result {
	return tools.Failure(tool, messages.ToolError, tools.ToolError{Kind: kind, Message: msg, RecoveryHint: hint})
}

// The error kinds of the work-item tools besides invalid_tool_input.
const (
	kindWorkItemNotFound = "work_item_not_found"
	kindWorkItemClosed   = "work_item_completed"
	kindPlanNotStored    = "plan_not_stored"
)

// workItemResult is the result of a successful work-item tool.
type workItemResult struct {
	WorkItem WorkItemView `json:"work_item"`
	// Warning is set when the call succeeded with a caveat (no completion
	// report, a plan that could not be stored).
	Warning *tools.ToolError `json:"warning,omitempty"`
}

// runWorkItemTool runs a work-item tool against the agent's state: the
// result, and the payloads toolFinished journals with it on success.
// false for any other tool.
func (a *agent) runWorkItemTool(call messages.ToolCall) (tools.Result, []messages.Payload, bool) {
	i := slices.IndexFunc(workItemToolset, func(t tools.Tool) bool { return t.Spec().Name == call.Name })
	if i < 0 {
		return tools.Result{}, nil, false
	}
	if res := callSafely(a.ctx, workItemToolset[i], call); res.Status != messages.ToolOK {
		return res, nil, true
	}
	var res tools.Result
	var payloads []messages.Payload
	switch call.Name {
	case agentstate.CreateWorkItemToolName:
		res, payloads = a.createWorkItem(decodeValid[CreateWorkItemArgs](call))
	case agentstate.PickWorkItemToolName:
		res, payloads = a.pickWorkItem(decodeValid[PickWorkItemArgs](call))
	case agentstate.UpdateWorkItemToolName:
		res, payloads = a.updateWorkItem(decodeValid[UpdateWorkItemArgs](call))
	case agentstate.CompleteWorkItemToolName:
		res, payloads = a.completeWorkItem(decodeValid[CompleteWorkItemArgs](call))
	}
	return res, payloads, true
}

// decodeValid decodes arguments the typed tool has just accepted.
func decodeValid[A any](call messages.ToolCall) A {
	var args A
	_ = json.Unmarshal(call.Arguments, &args)
	return args
}

// newWorkItem is a fresh open record of this agent.
func (a *agent) newWorkItem(objective string, status messages.PlanStatus, todos []messages.TodoItem) messages.WorkItemRecord {
	now := a.deps.Clock.Now().UTC()
	if todos == nil {
		todos = []messages.TodoItem{}
	}
	return messages.WorkItemRecord{ID: messages.NewID("wi"), AgentID: a.id, Objective: strings.TrimSpace(objective),
		State: messages.WorkItemStateOpen, PlanStatus: status, TodoList: todos, CreatedAt: now, UpdatedAt: now}
}

func (a *agent) createWorkItem(args CreateWorkItemArgs) (tools.Result, []messages.Payload) {
	status := messages.PlanDraft
	if args.PlanStatus != "" {
		status = messages.PlanStatus(args.PlanStatus)
	}
	rec := a.newWorkItem(args.Objective, status, todoItems(args.TodoList))
	var warning *tools.ToolError
	if strings.TrimSpace(args.Plan) != "" {
		warning = a.seedPlan(rec.ID, args.Plan)
	}
	out := workItemResult{WorkItem: a.viewOf(&rec, false), Warning: warning}
	summary := fmt.Sprintf("Created work item %s (queued). Call %s to focus on it.", rec.ID, agentstate.PickWorkItemToolName)
	return tools.Success(agentstate.CreateWorkItemToolName, summary, out), []messages.Payload{messages.WorkItemCreated{Record: rec}}
}

// seedPlan writes the initial plan file; a warning when it cannot.
func (a *agent) seedPlan(itemID, plan string) *tools.ToolError {
	path, err := a.deps.ToolEnv.planPath(a.id, itemID)
	if err == nil && path == "" {
		err = fmt.Errorf("this runtime has no agent home")
	}
	if err == nil {
		err = writePlan(path, plan)
	}
	if err != nil {
		return &tools.ToolError{Kind: kindPlanNotStored, Message: "the plan was not stored: " + err.Error(),
			RecoveryHint: "keep the plan in your todo_list, or write it to a file of your own"}
	}
	return nil
}

// openItem finds an open work item for tool; a failure result otherwise.
func (a *agent) openItem(tool, id string) (*messages.WorkItemRecord, *tools.Result) {
	r := a.state.WorkItemOf(strings.TrimSpace(id))
	switch {
	case r == nil || r.AgentID != a.id:
		res := workItemFailure(tool, kindWorkItemNotFound, fmt.Sprintf("there is no work item %q", id),
			"use a work_item_id from the work queue in your context, or create one with "+agentstate.CreateWorkItemToolName)
		return nil, &res
	case !r.Open():
		res := workItemFailure(tool, kindWorkItemClosed, fmt.Sprintf("work item %s is already completed", r.ID),
			"create a new work item for follow-up work")
		return nil, &res
	}
	return r, nil
}

func (a *agent) pickWorkItem(args PickWorkItemArgs) (tools.Result, []messages.Payload) {
	r, fail := a.openItem(agentstate.PickWorkItemToolName, args.WorkItemID)
	if fail != nil {
		return *fail, nil
	}
	out := workItemResult{WorkItem: a.viewOf(r, true)}
	if a.state.CurrentWorkItemID == r.ID {
		return tools.Success(agentstate.PickWorkItemToolName, fmt.Sprintf("Work item %s is already current.", r.ID), out), nil
	}
	return tools.Success(agentstate.PickWorkItemToolName, fmt.Sprintf("Work item %s is now current.", r.ID), out),
		[]messages.Payload{messages.WorkItemPicked{WorkItemID: r.ID, PreviousWorkItemID: a.state.CurrentWorkItemID}}
}

func (a *agent) updateWorkItem(args UpdateWorkItemArgs) (tools.Result, []messages.Payload) {
	r, fail := a.openItem(agentstate.UpdateWorkItemToolName, args.WorkItemID)
	if fail != nil {
		return *fail, nil
	}
	now := a.deps.Clock.Now().UTC()
	rec := r.Clone()
	if args.Objective != nil {
		rec.Objective = strings.TrimSpace(*args.Objective)
	}
	if args.PlanStatus != nil {
		rec.PlanStatus = messages.PlanStatus(*args.PlanStatus)
	}
	if args.TodoList != nil {
		rec.TodoList = todoItems(args.TodoList)
	}
	var timer []messages.Payload
	if args.BlockedBy != nil {
		after := DefaultRecheckAfter
		if args.RecheckAfter != nil {
			after = time.Duration(*args.RecheckAfter) * time.Millisecond
		}
		timer = agentstate.SetBlocker(&rec, *args.BlockedBy, now, after, messages.NewID)
	}
	rec.UpdatedAt = now
	out := workItemResult{WorkItem: a.viewOf(&rec, a.state.CurrentWorkItemID == rec.ID)}
	payloads := append([]messages.Payload{messages.WorkItemUpdated{Record: rec, TurnID: a.state.Turn.ID}}, timer...)
	return tools.Success(agentstate.UpdateWorkItemToolName, fmt.Sprintf("Updated work item %s.", rec.ID), out), payloads
}

// completeWorkItem completes an item. The report is the same round's
// assistant text when the round has exactly one CompleteWorkItem call; it
// becomes the result summary, the delivery summary and a result brief.
func (a *agent) completeWorkItem(args CompleteWorkItemArgs) (tools.Result, []messages.Payload) {
	r, fail := a.openItem(agentstate.CompleteWorkItemToolName, args.WorkItemID)
	if fail != nil {
		return *fail, nil
	}
	t, now := a.state.Turn, a.deps.Clock.Now().UTC()
	rec := r.Clone()
	rec.State, rec.BlockedBy, rec.RecheckAt, rec.RecheckConsumedAt, rec.UpdatedAt = messages.WorkItemStateCompleted, "", nil, nil, now
	text := strings.TrimSpace(t.LastText)
	completions := 0
	for _, c := range t.Calls {
		if c.Name == agentstate.CompleteWorkItemToolName {
			completions++
		}
	}
	done := messages.WorkItemCompleted{Record: rec}
	out := workItemResult{}
	payloads := []messages.Payload{}
	summary := fmt.Sprintf("Completed work item %s; your text of this reply is its completion report.", rec.ID)
	switch {
	case text == "" || completions != 1:
		problem := "this reply has no text"
		if completions != 1 {
			problem = fmt.Sprintf("this reply completes %d work items", completions)
		}
		out.Warning = &tools.ToolError{Kind: "missing_completion_report",
			Message:      "work item completed without a completion report: " + problem,
			RecoveryHint: "next time, write the operator-facing report as text in the same reply as one " + agentstate.CompleteWorkItemToolName + " call"}
		summary = fmt.Sprintf("Completed work item %s without a completion report.", rec.ID)
	default:
		rec.ResultSummary = text
		done.Record = rec
		done.DeliverySummary = &messages.DeliverySummaryRecord{WorkItemID: rec.ID, Text: text, TurnID: t.ID, CreatedAt: now}
		payloads = append(payloads, messages.BriefRecorded{Brief: messages.Brief{
			ID: messages.NewID("brief"), AgentID: a.id, Kind: messages.BriefResult, WorkItemID: rec.ID, Text: text,
			RelatedMessageID: t.MessageID, CreatedAt: now,
		}})
	}
	out.WorkItem = a.viewOf(&rec, false)
	if done.DeliverySummary != nil {
		out.WorkItem.CompletionReport = reportOf(done.DeliverySummary, &rec)
	}
	return tools.Success(agentstate.CompleteWorkItemToolName, summary, out), append([]messages.Payload{done}, payloads...)
}

// armScheduled arms the timers among payloads that were just persisted.
func (a *agent) armScheduled(payloads []messages.Payload) {
	for _, p := range payloads {
		if ts, ok := p.(messages.TimerScheduled); ok {
			a.armTimer(ts.TimerID, ts.DueAt)
		}
	}
}
