package messages

// AgentHomeWorkspace is the workspace id of an agent's own home, the
// fallback workspace every agent has: never attached, never detached.
const AgentHomeWorkspace = "agent_home"

// Workspace isolation modes.
const (
	// WorkspaceDirect runs the agent's tools in the workspace itself.
	WorkspaceDirect = "direct"
	// WorkspaceIsolated runs them in a runtime-managed worktree of it.
	WorkspaceIsolated = "isolated"
)

// WorkspaceAttached records a workspace joining an agent's durable
// attached set: its id, its anchor (the git root holding the path, or the
// directory itself) and the path it was attached by.
type WorkspaceAttached struct {
	WorkspaceID string `json:"workspace_id"`
	Anchor      string `json:"anchor"`
	Path        string `json:"path"`
	// InheritedFrom is the agent whose attached set a new public agent
	// inherited it from ("" when attached directly).
	InheritedFrom string `json:"inherited_from,omitempty"`
}

// WorkspaceUsed records the agent's active workspace: its tools run in
// ExecutionRoot (cwd Cwd) from now on, across restarts, and its workspace
// guidance is read from the workspace's anchor. WorkspaceID
// AgentHomeWorkspace returns to the agent's home.
type WorkspaceUsed struct {
	WorkspaceID   string `json:"workspace_id"`
	Mode          string `json:"mode"`
	ExecutionRoot string `json:"execution_root"`
	Cwd           string `json:"cwd"`
	// WorktreePath and WorktreeBranch name the managed worktree of
	// isolated mode.
	WorktreePath   string `json:"worktree_path,omitempty"`
	WorktreeBranch string `json:"worktree_branch,omitempty"`
}

// WorkspaceDetached records a workspace leaving the attached set; nothing
// on disk is touched.
type WorkspaceDetached struct {
	WorkspaceID string `json:"workspace_id"`
}

func (WorkspaceAttached) EventType() EventType { return EventWorkspaceAttached }
func (WorkspaceUsed) EventType() EventType     { return EventWorkspaceUsed }
func (WorkspaceDetached) EventType() EventType { return EventWorkspaceDetached }
