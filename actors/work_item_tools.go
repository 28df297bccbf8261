package actors

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

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

func (a *agent) createWorkItem(args runtimetools.CreateWorkItemArgs) (tools.Result, []messages.Payload) {
	status := messages.PlanDraft
	if args.PlanStatus != "" {
		status = messages.PlanStatus(args.PlanStatus)
	}
	rec := a.newWorkItem(args.Objective, status, runtimetools.TodoItems(args.TodoList))
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

func (a *agent) pickWorkItem(args runtimetools.PickWorkItemArgs) (tools.Result, []messages.Payload) {
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

func (a *agent) updateWorkItem(args runtimetools.UpdateWorkItemArgs) (tools.Result, []messages.Payload) {
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
		rec.TodoList = runtimetools.TodoItems(args.TodoList)
	}
	var timer []messages.Payload
	if args.BlockedBy != nil {
		after := runtimetools.DefaultRecheckAfter
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
func (a *agent) completeWorkItem(args runtimetools.CompleteWorkItemArgs) (tools.Result, []messages.Payload) {
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
