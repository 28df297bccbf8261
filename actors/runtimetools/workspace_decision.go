package runtimetools

import (
	"fmt"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// WorkspaceIO is the resolution a UseWorkspace result waits for: the path
// or workspace id resolved to a workspace (its anchor found, an isolated
// worktree made), which reads the file system and may run git, so the
// agent does it off its actor against Current, its workspaces as they
// were decided on. Finish then decides the switch on Current (a copy:
// it touches no agent state and may run on any goroutine), with home the
// agent's home for the view in the result.
type WorkspaceIO struct {
	Path, WorkspaceID, Mode string
	Current                 *agentstate.State
	Finish                  func(use agentstate.WorkspaceUse, resolveErr error, home string) (tools.Result, agentstate.Batch)
}

// UseWorkspace decides a validated UseWorkspace call: its resolution is
// I/O (WorkspaceIO); the switch is journaled with the result.
func UseWorkspace(st *agentstate.State, _ agentstate.Env, args UseWorkspaceArgs) Decision {
	_ = args.Validate() // the Call accepted them; this fills the defaults
	cur := &agentstate.State{Workspaces: append([]messages.WorkspaceAttached{}, st.Workspaces...)}
	if w := st.ActiveWorkspace; w != nil {
		cp := *w
		cur.ActiveWorkspace = &cp
	}
	return Decision{Workspace: &WorkspaceIO{Path: args.Path, WorkspaceID: args.WorkspaceID, Mode: args.Mode, Current: cur,
		Finish: func(use agentstate.WorkspaceUse, resolveErr error, home string) (tools.Result, agentstate.Batch) {
			fail := func(err error) (tools.Result, agentstate.Batch) {
				return tools.Failure(UseWorkspaceToolName, messages.ToolError, tools.ToolError{Kind: "workspace_refused",
					Message: err.Error(), RecoveryHint: `give an existing absolute directory, or an attached workspace_id ("agent_home" for your home)`}), nil
			}
			if resolveErr != nil {
				return fail(resolveErr)
			}
			b, err := agentstate.UseWorkspace(cur, use)
			if err != nil {
				return fail(err)
			}
			for _, p := range b {
				if err := cur.ApplyDecoded(messages.Event{}, p); err != nil {
					return fail(err)
				}
			}
			v := agentstate.Workspaces(cur, home)
			msg := fmt.Sprintf("Working in %s (%s) at %s from your next tool call.", v.Active.WorkspaceID, v.Active.Mode, v.Active.ExecutionRoot)
			if g := agentstate.AdoptionGuidance(use); g != "" {
				msg += " " + g
			}
			return tools.Success(UseWorkspaceToolName, msg, v.Active), b
		}}}
}
