package actors

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// useWorkspaceFromTool switches the agent's workspace for a validated
// UseWorkspace call: the path is resolved (and an isolated worktree made)
// in a step goroutine from the workspaces captured here; the switch is
// journaled with the result.
func (a *agent) useWorkspaceFromTool(call messages.ToolCall, valid tools.Result) (slowDecision, bool) {
	args, ok := resultOf[runtimetools.UseWorkspaceArgs](valid)
	if !ok {
		return nil, false
	}
	st := &agentstate.State{Workspaces: append([]messages.WorkspaceAttached{}, a.state.Workspaces...)}
	if w := a.state.ActiveWorkspace; w != nil {
		cp := *w
		st.ActiveWorkspace = &cp
	}
	env, home, id := a.deps.ToolEnv, a.deps.ToolEnv.workspaceHome(a.id), a.id
	req := WorkspaceRequest{Path: args.Path, WorkspaceID: args.WorkspaceID, Mode: args.Mode}
	return func(ctx context.Context) (tools.Result, []messages.Payload) {
		fail := func(err error) (tools.Result, []messages.Payload) {
			return tools.Failure(runtimetools.UseWorkspaceToolName, messages.ToolError, tools.ToolError{Kind: "workspace_refused",
				Message: err.Error(), RecoveryHint: `give an existing absolute directory, or an attached workspace_id ("agent_home" for your home)`}), nil
		}
		use, err := env.resolveWorkspace(ctx, id, req, agentstate.Workspaces(st, home))
		if err != nil {
			return fail(err)
		}
		b, err := agentstate.UseWorkspace(st, use)
		if err != nil {
			return fail(err)
		}
		for _, p := range b {
			if err := st.ApplyDecoded(messages.Event{}, p); err != nil {
				return fail(err)
			}
		}
		v := agentstate.Workspaces(st, home)
		return tools.Success(runtimetools.UseWorkspaceToolName,
			fmt.Sprintf("Working in %s (%s) at %s from your next tool call.", v.Active.WorkspaceID, v.Active.Mode, v.Active.ExecutionRoot), v.Active), b
	}, true
}
