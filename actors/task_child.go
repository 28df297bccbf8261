package actors

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
func (t *agentTasks) childSnapshot(ctx context.Context, r agentstate.TaskRecord, s *task.Snapshot) {
	if r.Child == nil {
		return
	}
	sup := supervisionOf(t.agentID, r)
	s.ChildAgentID, s.WorkspaceMode, s.ChildSupervision = r.Child.ChildAgentID, sup.WorkspaceMode, &sup
	if !r.Terminal() {
		s.InputTarget = task.InputChildFollowup
	}
	if t.h != nil {
		s.ChildObservability = t.h.rt.childObservability(ctx, r)
	}
}

// childObservability is the observability of the child of task r: from
// the terminal record once it ended, else asked of the child (nil when it
// does not answer).
func (rt *Runtime) childObservability(ctx context.Context, r agentstate.TaskRecord) *task.ChildObservability {
	if r.Terminal() {
		o := task.ChildObservability{Phase: task.PhaseTerminal}
		var out task.OutputTask
		if json.Unmarshal(r.Result, &out) == nil {
			o.LastResultBrief = agentstate.BoundedBrief(out.OutputPreview, agentstate.BriefLimit)
		}
		return &o
	}
	res, err := rt.ask(ctx, r.Child.ChildAgentID, &observeChild{})
	if err != nil {
		return nil
	}
	if o, ok := res.(task.ChildObservability); ok {
		return &o
	}
	return nil
}

// childOutput is TaskOutput of a child task: its result once terminal.
func (t *agentTasks) childOutput(r agentstate.TaskRecord, maxChars int) (task.OutputTask, error) {
	sup := supervisionOf(t.agentID, r)
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
func (t *agentTasks) childInput(ctx context.Context, r agentstate.TaskRecord, text string) (task.InputResult, error) {
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
	env := delegationEnvelope(r.Child.ChildAgentID, t.h.rt.deps.Clock.Now(), text,
		map[string]string{"parent_agent_id": t.agentID, "supervision_task_id": r.TaskID, "followup": "true"})
	if _, err := t.h.rt.Admit(ctx, env); err != nil {
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
func (t *agentTasks) answerChild(ctx context.Context, r agentstate.TaskRecord, text string, res *task.InputResult) (task.InputResult, bool) {
	id := r.Child.ChildAgentID
	all, err := t.h.rt.Suspensions(ctx, id)
	if err != nil {
		return *res, false
	}
	for _, s := range all {
		if !s.Open() {
			continue
		}
		_, err := t.h.rt.Respond(ctx, id, Answer{SuspensionID: s.ID, Value: agentstate.AnswerJSON(s.ResponseType, text),
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
func (t *agentTasks) liveSnapshot(ctx context.Context, r agentstate.TaskRecord) task.Snapshot {
	s := t.snapshot(r)
	t.childSnapshot(ctx, r, &s)
	return s
}

// childStop archives the child (which first stops its own tasks and
// children) and records the supervision task cancelled; a child that
// already settled keeps its own status.
func (t *agentTasks) childStop(ctx context.Context, r agentstate.TaskRecord) (task.StopResult, error) {
	if !r.Terminal() {
		id := r.Child.ChildAgentID
		if err := archivedErr(t.h.rt.ask(ctx, id, &archiveChild{status: task.StatusCancelled, reason: "stopped by its parent (TaskStop)"})); err != nil {
			t.h.rt.deps.Log.Warn().Err(err).Str("agent_id", t.agentID).Str("child_agent_id", id).Msg("child not archived; its task is cancelled anyway")
		}
		res, err := t.h.rt.ask(ctx, t.agentID, &childFinished{childID: id, status: task.StatusCancelled, text: "Stopped by its parent with TaskStop."})
		if err == nil {
			err = res.(*endRecorded).err
		}
		if err != nil {
			return task.StopResult{}, fmt.Errorf("stop child task %s: %w", r.TaskID, err)
		}
	}
	rec, err := t.record(ctx, r.TaskID)
	if err != nil {
		return task.StopResult{}, err
	}
	return task.StopResult{Task: t.liveSnapshot(ctx, rec), StopRequested: !r.Terminal()}, nil
}

// archived answers archiveChild.
type archived struct{ err error }

func archivedErr(res any, err error) error {
	if err != nil {
		return err
	}
	if a, ok := res.(*archived); ok {
		return a.err
	}
	return nil
}
