package actors

import (
	"context"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// workspaceIO is the rest of a UseWorkspace decision
// (runtimetools.UseWorkspace) for a step goroutine: the path or id
// resolved against the workspaces the decision captured, then the switch
// decided on them. It touches nothing of the agent.
func (a *agent) workspaceIO(w *runtimetools.WorkspaceIO) slowDecision {
	env, home, id := a.deps.ToolEnv, a.deps.ToolEnv.workspaceHome(a.id), a.id
	req := WorkspaceRequest{Path: w.Path, WorkspaceID: w.WorkspaceID, Mode: w.Mode}
	return func(ctx context.Context) (tools.Result, []messages.Payload) {
		use, err := env.resolveWorkspace(ctx, id, req, agentstate.Workspaces(w.Current, home))
		return w.Finish(use, err, home)
	}
}
