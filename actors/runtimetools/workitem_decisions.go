package runtimetools

import (
	"fmt"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// The error kinds of the work-item tools besides invalid_tool_input.
const (
	KindWorkItemNotFound = "work_item_not_found"
	KindWorkItemClosed   = "work_item_completed"
	KindPlanNotStored    = "plan_not_stored"
)

// WorkItemResult is the result of a successful work-item tool.
type WorkItemResult struct {
	WorkItem agentstate.WorkItemView `json:"work_item"`
	// Warning is set when the call succeeded with a caveat (no completion
	// report, a plan that could not be stored).
	Warning *tools.ToolError `json:"warning,omitempty"`
}

// workItemFailure is a work-item tool error that changes nothing.
func workItemFailure(tool, kind, msg, hint string) Decision {
	return Decision{Result: tools.Failure(tool, messages.ToolError, tools.ToolError{Kind: kind, Message: msg, RecoveryHint: hint})}
}

// NewWorkItem is a fresh open record of the agent env.AgentID.
func NewWorkItem(env agentstate.Env, objective string, status messages.PlanStatus, todos []messages.TodoItem) messages.WorkItemRecord {
	now := env.Now.UTC()
	if todos == nil {
		todos = []messages.TodoItem{}
	}
	return messages.WorkItemRecord{ID: env.NewID("wi"), AgentID: env.AgentID, Objective: strings.TrimSpace(objective),
		State: messages.WorkItemStateOpen, PlanStatus: status, TodoList: todos, CreatedAt: now, UpdatedAt: now}
}

// withPlan is the Decision whose result, built by result from the work
// item's view, shows its plan artifact as read off the actor (PlanIO).
func withPlan(view agentstate.WorkItemView, b agentstate.Batch, seed *string,
	result func(view agentstate.WorkItemView, seedErr error) tools.Result) Decision {
	return Decision{Batch: b, Plan: &PlanIO{ItemID: view.ID, Seed: seed,
		Finish: func(art *agentstate.PlanArtifact, seedErr error) tools.Result {
			view.PlanArtifact = art
			return result(view, seedErr)
		}}}
}

// CreateWorkItem creates a queued work item; a plan in the arguments seeds
// its plan file (a warning in the result when it cannot be stored).
func CreateWorkItem(st *agentstate.State, env agentstate.Env, args CreateWorkItemArgs) Decision {
	status := messages.PlanDraft
	if args.PlanStatus != "" {
		status = messages.PlanStatus(args.PlanStatus)
	}
	rec := NewWorkItem(env, args.Objective, status, TodoItems(args.TodoList))
	rec.WorkspaceID = st.ActiveWorkspaceID() // memory search attributes it by this
	summary := fmt.Sprintf("Created work item %s (queued). Call %s to focus on it.", rec.ID, agentstate.PickWorkItemToolName)
	view := agentstate.ViewOf(st, &rec, false)
	b := agentstate.Batch{messages.WorkItemCreated{Record: rec}}
	var seed *string
	if strings.TrimSpace(args.Plan) != "" {
		seed = &args.Plan
	}
	return withPlan(view, b, seed, func(view agentstate.WorkItemView, seedErr error) tools.Result {
		out := WorkItemResult{WorkItem: view}
		if seedErr != nil {
			out.Warning = &tools.ToolError{Kind: KindPlanNotStored, Message: "the plan was not stored: " + seedErr.Error(),
				RecoveryHint: "keep the plan in your todo_list, or write it to a file of your own"}
		}
		return tools.Success(agentstate.CreateWorkItemToolName, summary, out)
	})
}

// openItem finds the agent's open work item id for tool; a failure
// otherwise.
func openItem(st *agentstate.State, env agentstate.Env, tool, id string) (*messages.WorkItemRecord, *Decision) {
	r := st.WorkItemOf(strings.TrimSpace(id))
	switch {
	case r == nil || r.AgentID != env.AgentID:
		d := workItemFailure(tool, KindWorkItemNotFound, fmt.Sprintf("there is no work item %q", id),
			"use a work_item_id from the work queue in your context, or create one with "+agentstate.CreateWorkItemToolName)
		return nil, &d
	case !r.Open():
		d := workItemFailure(tool, KindWorkItemClosed, fmt.Sprintf("work item %s is already completed", r.ID),
			"create a new work item for follow-up work")
		return nil, &d
	}
	return r, nil
}

// success is the result of a work-item tool with view.
func success(tool, summary string) func(agentstate.WorkItemView, error) tools.Result {
	return func(view agentstate.WorkItemView, _ error) tools.Result {
		return tools.Success(tool, summary, WorkItemResult{WorkItem: view})
	}
}

// PickWorkItem makes an open work item the agent's current one.
func PickWorkItem(st *agentstate.State, env agentstate.Env, args PickWorkItemArgs) Decision {
	const tool = agentstate.PickWorkItemToolName
	r, fail := openItem(st, env, tool, args.WorkItemID)
	if fail != nil {
		return *fail
	}
	view := agentstate.ViewOf(st, r, true)
	if st.CurrentWorkItemID == r.ID {
		return withPlan(view, nil, nil, success(tool, fmt.Sprintf("Work item %s is already current.", r.ID)))
	}
	b := agentstate.Batch{messages.WorkItemPicked{WorkItemID: r.ID, PreviousWorkItemID: st.CurrentWorkItemID}}
	return withPlan(view, b, nil, success(tool, fmt.Sprintf("Work item %s is now current.", r.ID)))
}

// UpdateWorkItem changes an open work item's objective, plan status,
// checklist or blocker (a blocker schedules its recheck timer).
func UpdateWorkItem(st *agentstate.State, env agentstate.Env, args UpdateWorkItemArgs) Decision {
	const tool = agentstate.UpdateWorkItemToolName
	r, fail := openItem(st, env, tool, args.WorkItemID)
	if fail != nil {
		return *fail
	}
	now := env.Now.UTC()
	rec := r.Clone()
	if args.Objective != nil {
		rec.Objective = strings.TrimSpace(*args.Objective)
	}
	if args.PlanStatus != nil {
		rec.PlanStatus = messages.PlanStatus(*args.PlanStatus)
	}
	if args.TodoList != nil {
		rec.TodoList = TodoItems(args.TodoList)
	}
	var timer []messages.Payload
	if args.BlockedBy != nil {
		after := DefaultRecheckAfter
		if args.RecheckAfter != nil {
			after = time.Duration(*args.RecheckAfter) * time.Millisecond
		}
		timer = agentstate.SetBlocker(&rec, *args.BlockedBy, now, after, env.NewID)
	}
	rec.UpdatedAt = now
	view := agentstate.ViewOf(st, &rec, st.CurrentWorkItemID == rec.ID)
	b := append(agentstate.Batch{messages.WorkItemUpdated{Record: rec, TurnID: st.Turn.ID}}, timer...)
	return withPlan(view, b, nil, success(tool, fmt.Sprintf("Updated work item %s.", rec.ID)))
}

// CompleteWorkItem completes an open work item. The report is the same
// round's assistant text when the round has exactly one CompleteWorkItem
// call; it becomes the result summary, the delivery summary and a result
// brief. Without one the item completes with a warning.
func CompleteWorkItem(st *agentstate.State, env agentstate.Env, args CompleteWorkItemArgs) Decision {
	const tool = agentstate.CompleteWorkItemToolName
	r, fail := openItem(st, env, tool, args.WorkItemID)
	if fail != nil {
		return *fail
	}
	t, now := st.Turn, env.Now.UTC()
	rec := r.Clone()
	rec.State, rec.BlockedBy, rec.RecheckAt, rec.RecheckConsumedAt, rec.UpdatedAt = messages.WorkItemStateCompleted, "", nil, nil, now
	text := strings.TrimSpace(t.LastText)
	completions := 0
	for _, c := range t.Calls {
		if c.Name == tool {
			completions++
		}
	}
	done := messages.WorkItemCompleted{Record: rec}
	var warning *tools.ToolError
	var brief agentstate.Batch
	summary := fmt.Sprintf("Completed work item %s; your text of this reply is its completion report.", rec.ID)
	switch {
	case text == "" || completions != 1:
		problem := "this reply has no text"
		if completions != 1 {
			problem = fmt.Sprintf("this reply completes %d work items", completions)
		}
		warning = &tools.ToolError{Kind: "missing_completion_report",
			Message:      "work item completed without a completion report: " + problem,
			RecoveryHint: "next time, write the operator-facing report as text in the same reply as one " + tool + " call"}
		summary = fmt.Sprintf("Completed work item %s without a completion report.", rec.ID)
	default:
		rec.ResultSummary = text
		done.Record = rec
		done.DeliverySummary = &messages.DeliverySummaryRecord{WorkItemID: rec.ID, Text: text, TurnID: t.ID, CreatedAt: now}
		brief = agentstate.Batch{messages.BriefRecorded{Brief: messages.Brief{
			ID: env.NewID("brief"), AgentID: env.AgentID, Kind: messages.BriefResult, WorkItemID: rec.ID, Text: text,
			RelatedMessageID: t.MessageID, CreatedAt: now,
		}}}
	}
	view := agentstate.ViewOf(st, &rec, false)
	if done.DeliverySummary != nil {
		view.CompletionReport = agentstate.ReportOf(done.DeliverySummary, &rec)
	}
	return withPlan(view, append(agentstate.Batch{done}, brief...), nil, func(view agentstate.WorkItemView, _ error) tools.Result {
		return tools.Success(tool, summary, WorkItemResult{WorkItem: view, Warning: warning})
	})
}
