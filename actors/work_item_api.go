package actors

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
)

// WorkItemView is a work item as read surfaces show it
// (agentstate.WorkItemView).
type WorkItemView = agentstate.WorkItemView

// CompletionReport is the promoted report of a completed work item
// (agentstate.CompletionReport).
type CompletionReport = agentstate.CompletionReport

// viewOf is the read view of rec, with the plan artifact last read of it
// (plan_cache.go).
func (a *agent) viewOf(rec *messages.WorkItemRecord, current bool) WorkItemView {
	v := agentstate.ViewOf(a.state, rec, current)
	v.PlanArtifact = a.plans.arts[rec.ID]
	return v
}

// answerWorkItems answers getWorkItems with the agent's work items, oldest
// first: the views are taken here, their plan files are read by a
// goroutine, which answers.
func (a *agent) answerWorkItems(c actor.Context) {
	items := a.state.WorkItemsSorted()
	out := make([]WorkItemView, 0, len(items))
	paths := make([]string, 0, len(items))
	for _, r := range items {
		out = append(out, agentstate.ViewOf(a.state, r, r.ID == a.state.CurrentWorkItemID))
		path, err := a.deps.ToolEnv.planPath(a.id, r.ID)
		if err != nil {
			path = ""
		}
		paths = append(paths, path)
	}
	sender, root := c.Sender(), c.ActorSystem().Root
	if sender == nil {
		return
	}
	go func() {
		for i, path := range paths {
			out[i].PlanArtifact = readPlanArtifact(path)
		}
		root.Send(sender, out)
	}()
}

// ErrInvalidObjective is wrapped by EnqueueWorkItem's error for an empty
// or oversized objective.
var ErrInvalidObjective = errors.New("invalid work item objective")

// MaxObjectiveChars bounds a work item's objective.
const MaxObjectiveChars = runtimetools.MaxObjectiveChars

// enqueueWorkItem asks an agent to create a queued work item; the reply is
// *workItemEnqueued.
type enqueueWorkItem struct {
	objective string
}

// Priority implements mailbox.Prioritized.
func (*enqueueWorkItem) Priority() messages.Priority { return messages.PriorityNext }

type workItemEnqueued struct {
	view WorkItemView
	err  error
}

// getWorkItems asks an agent for its work items; the reply is
// []WorkItemView.
type getWorkItems struct{}

// Priority implements mailbox.Prioritized.
func (*getWorkItems) Priority() messages.Priority { return messages.PriorityNext }

// EnqueueWorkItem creates an open, queued work item for agent id through
// the control plane: no transcript message, and the current work item, if
// any, stays current. An idle agent is woken to pick it up.
func (r *Runtime) EnqueueWorkItem(ctx context.Context, id, objective string) (WorkItemView, error) {
	objective = strings.TrimSpace(objective)
	switch {
	case objective == "":
		return WorkItemView{}, fmt.Errorf("%w: the objective is empty", ErrInvalidObjective)
	case len(objective) > runtimetools.MaxObjectiveChars:
		return WorkItemView{}, fmt.Errorf("%w: the objective is longer than %d characters", ErrInvalidObjective, runtimetools.MaxObjectiveChars)
	}
	res, err := r.ask(ctx, id, &enqueueWorkItem{objective: objective})
	if err != nil {
		return WorkItemView{}, err
	}
	out := res.(*workItemEnqueued)
	return out.view, out.err
}

// WorkItems returns agent id's work items, oldest first.
func (r *Runtime) WorkItems(ctx context.Context, id string) ([]WorkItemView, error) {
	res, err := r.ask(ctx, id, &getWorkItems{})
	if err != nil {
		return nil, err
	}
	return res.([]WorkItemView), nil
}

// enqueue persists a control-plane work item.
func (a *agent) enqueue(m *enqueueWorkItem) *workItemEnqueued {
	if a.state.Status == messages.StatusStopped {
		return &workItemEnqueued{err: ErrAgentStopped}
	}
	rec := runtimetools.NewWorkItem(a.env(), m.objective, messages.PlanDraft, nil)
	rec.WorkspaceID = a.state.ActiveWorkspaceID()
	if err := a.persist(messages.WorkItemCreated{Record: rec}); err != nil {
		return &workItemEnqueued{err: fmt.Errorf("enqueue work item: %w", err)}
	}
	return &workItemEnqueued{view: a.viewOf(a.state.WorkItems[rec.ID], false)}
}
