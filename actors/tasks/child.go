package tasks

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/tools/task"
)

// The task tools on a child_agent_task: the parent's supervision handle of
// a private child. Status and output carry the child_supervision
// projection and, while the child runs, its live observability; input is
// a follow-up message to the child; stop archives the child and,
// recursively, its descendants and their command tasks.

// childSnapshot adds the child fields to a child task's snapshot; the
// observability of a running child is asked of the child itself.
func (t *Agent) childSnapshot(ctx context.Context, r agentstate.TaskRecord, s *task.Snapshot) {
	if r.Child == nil {
		return
	}
	sup := Supervision(t.agentID, r)
	s.ChildAgentID, s.WorkspaceMode, s.ChildSupervision = r.Child.ChildAgentID, sup.WorkspaceMode, &sup
	if !r.Terminal() {
		s.InputTarget = task.InputChildFollowup
	}
	if t.h != nil {
		s.ChildObservability = t.h.ask.Observe(ctx, r)
	}
}

// childOutput is TaskOutput of a child task: its result once terminal.
func (t *Agent) childOutput(r agentstate.TaskRecord, maxChars int) (task.OutputTask, error) {
	sup := Supervision(t.agentID, r)
	out := task.OutputTask{TaskID: r.TaskID, Kind: r.Kind, Status: r.Status, Summary: r.Summary, ChildSupervision: &sup}
	if !r.Terminal() {
		return out, nil
	}
	var final task.OutputTask
	if err := json.Unmarshal(r.Result, &final); err != nil {
		return out, fmt.Errorf("task %s result: %w", r.TaskID, err)
	}
	prev, whole := agentstate.CutRunes(final.OutputPreview, maxChars)
	out.OutputPreview, out.OutputTruncated, out.ResultSummary = prev, !whole || final.OutputTruncated, final.ResultSummary
	return out, nil
}

// childInput delivers a parent follow-up to the child as its next message
// (runtime instruction, never operator authority).
func (t *Agent) childInput(ctx context.Context, r agentstate.TaskRecord, text string) (task.InputResult, error) {
	res := task.InputResult{InputTarget: task.InputChildFollowup}
	res.Task = t.liveSnapshot(ctx, r)
	switch {
	case r.Terminal():
		res.SummaryText = "the child's supervision task has ended; spawn a new child for more work"
		return res, nil
	case text == "":
		res.SummaryText = "a follow-up needs text in input; close_input does not apply to a child"
		return res, nil
	}
	if answered, ok := t.answerChild(ctx, r, text, &res); ok {
		return answered, nil
	}
	if err := t.h.ask.FollowUp(ctx, t.agentID, r, text); err != nil {
		res.SummaryText = "the follow-up was not delivered: " + err.Error()
		return res, nil
	}
	res.AcceptedInput, res.BytesWritten = true, len(text)
	res.SummaryText = fmt.Sprintf("follow-up delivered to child %s", r.Child.ChildAgentID)
	return res, nil
}

// answerChild answers the open question of a child suspended awaiting
// input: its supervising parent is the boundary its questions go to. ok
// is false when the child has no open question.
func (t *Agent) answerChild(ctx context.Context, r agentstate.TaskRecord, text string, res *task.InputResult) (task.InputResult, bool) {
	id := r.Child.ChildAgentID
	all, err := t.h.ask.Suspensions(ctx, id)
	if err != nil {
		return *res, false
	}
	for _, s := range all {
		if !s.Open() {
			continue
		}
		_, err := t.h.ask.Respond(ctx, id, agentstate.Answer{SuspensionID: s.ID, Value: agentstate.AnswerJSON(s.ResponseType, text),
			RespondedBy: "parent:" + t.agentID})
		if err != nil {
			res.SummaryText = fmt.Sprintf("the child's question %q was not answered: %v", s.Question, err)
			return *res, true
		}
		res.AcceptedInput, res.BytesWritten = true, len(text)
		res.SummaryText = fmt.Sprintf("answered child %s's question %q", id, s.Question)
		return *res, true
	}
	return *res, false
}

// liveSnapshot is r's snapshot with, for a child task, its child's
// supervision and live observability.
func (t *Agent) liveSnapshot(ctx context.Context, r agentstate.TaskRecord) task.Snapshot {
	s := t.snapshot(r)
	t.childSnapshot(ctx, r, &s)
	return s
}

// childStop archives the child (which first stops its own tasks and
// children) and records the supervision task cancelled; a child that
// already settled keeps its own status.
func (t *Agent) childStop(ctx context.Context, r agentstate.TaskRecord) (task.StopResult, error) {
	if !r.Terminal() {
		if err := t.h.ask.StopChild(ctx, t.agentID, r); err != nil {
			return task.StopResult{}, fmt.Errorf("stop child task %s: %w", r.TaskID, err)
		}
	}
	rec, err := t.record(ctx, r.TaskID)
	if err != nil {
		return task.StopResult{}, err
	}
	return task.StopResult{Task: t.liveSnapshot(ctx, rec), StopRequested: !r.Terminal()}, nil
}
