package agentstate

import "github.com/holon-actors/holon-actors/messages"

// WorkspaceView is an agent's workspaces as the operator and the model
// see them: the active entry and the attached set.
type WorkspaceView struct {
	Active   ActiveWorkspaceView          `json:"active"`
	Attached []messages.WorkspaceAttached `json:"attached"`
	// Guidance, in the answer to a switch, says what to know about the
	// workspace switched to (AdoptionGuidance); it is not kept.
	Guidance string `json:"guidance,omitempty"`
}

// ActiveWorkspaceView is the active workspace entry: its id and anchor,
// how it is used, and where the agent's tools run. The agent's home is
// WorkspaceID agent_home, its anchor and execution root the home.
type ActiveWorkspaceView struct {
	WorkspaceID    string `json:"workspace_id"`
	Anchor         string `json:"anchor,omitempty"`
	Mode           string `json:"mode"`
	ExecutionRoot  string `json:"execution_root,omitempty"`
	Cwd            string `json:"cwd,omitempty"`
	WorktreePath   string `json:"worktree_path,omitempty"`
	WorktreeBranch string `json:"worktree_branch,omitempty"`
}

// Workspaces is st's WorkspaceView; home is the agent's home, the
// fallback entry's anchor and execution root ("" when the runtime gives
// it none).
func Workspaces(st *State, home string) WorkspaceView {
	v := WorkspaceView{Attached: append([]messages.WorkspaceAttached{}, st.Workspaces...)}
	w := st.ActiveWorkspace
	if w == nil {
		v.Active = ActiveWorkspaceView{WorkspaceID: messages.AgentHomeWorkspace, Anchor: home, Mode: messages.WorkspaceDirect,
			ExecutionRoot: home, Cwd: home}
		return v
	}
	att, _ := st.Attached(w.WorkspaceID)
	v.Active = ActiveWorkspaceView{WorkspaceID: w.WorkspaceID, Anchor: att.Anchor, Mode: w.Mode, ExecutionRoot: w.ExecutionRoot,
		Cwd: w.Cwd, WorktreePath: w.WorktreePath, WorktreeBranch: w.WorktreeBranch}
	return v
}
