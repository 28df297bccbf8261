package tasks

import (
	"encoding/json"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/tools/task"
)

// ChildSupervision is the supervision projection of a private child
// started through task taskID, in its parent's workspace
// (runtimetools.ChildSupervision, which SpawnAgent's decision uses).
func ChildSupervision(parent, child, taskID string) task.ChildSupervision {
	return runtimetools.ChildSupervision(parent, child, taskID)
}

// Supervision is the supervision projection of child task r: as its
// journaled result recorded it once it ended (with the worktree's cleanup
// outcome), else from its record.
func Supervision(parent string, r agentstate.TaskRecord) task.ChildSupervision {
	if r.Terminal() {
		var out task.OutputTask
		if json.Unmarshal(r.Result, &out) == nil && out.ChildSupervision != nil {
			return *out.ChildSupervision
		}
	}
	sup := ChildSupervision(parent, r.Child.ChildAgentID, r.TaskID)
	if r.Child.Worktree != nil {
		wt := *r.Child.Worktree
		sup.WorkspaceMode, sup.Worktree = runtimetools.WorkspaceWorktree, &wt
	}
	return sup
}
