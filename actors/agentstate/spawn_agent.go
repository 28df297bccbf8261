package agentstate

import (
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/worktree"
)

// ChildTaskRecord is the record of a child_agent_task: its child and the
// recovery spec that re-creates the child's journal if the runtime died
// between the parent's record and the child's creation.
type ChildTaskRecord struct {
	ChildAgentID  string              `json:"child_agent_id"`
	Summary       string              `json:"summary"`
	Prompt        string              `json:"prompt"`
	Trust         messages.TrustLevel `json:"trust"`
	WorkspaceMode string              `json:"workspace_mode"`
	// Worktree is the child's task-owned worktree in worktree mode, as
	// created; its cleanup outcome is in the task's result.
	Worktree *worktree.Info `json:"worktree,omitempty"`
}
