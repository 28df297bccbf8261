package runtimetools

import (
	"path/filepath"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// UseWorkspaceToolName is the runtime-owned workspace switch. The agent
// runs it itself: the path's anchor (and an isolated worktree) is found
// off the actor, and the switch is journaled with the result.
const UseWorkspaceToolName = "UseWorkspace"

// UseWorkspaceArgs are UseWorkspace's arguments: exactly one of Path and
// WorkspaceID.
type UseWorkspaceArgs struct {
	Path        string `json:"path,omitempty" jsonschema:"An absolute directory to work in; attached to you if new. Its workspace is the git repository holding it (or the directory itself), whose AGENTS.md guides you from the next turn."`
	WorkspaceID string `json:"workspace_id,omitempty" jsonschema:"An attached workspace's id (AgentGet shows your workspace); agent_home returns to your own home."`
	Mode        string `json:"mode,omitempty" jsonschema:"direct (default): work in the workspace itself. isolated: work in a runtime-managed git worktree of it, on its own branch."`
}

// AdjustSchema adds the enum.
func (UseWorkspaceArgs) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["mode"].Enum = []any{messages.WorkspaceDirect, messages.WorkspaceIsolated}
}

// Validate checks what the schema cannot.
func (a *UseWorkspaceArgs) Validate() error {
	if a.Mode == "" {
		a.Mode = messages.WorkspaceDirect
	}
	switch {
	case (a.Path == "") == (a.WorkspaceID == ""):
		return &tools.FieldError{Field: "path", Problem: "give exactly one of path and workspace_id",
			Hint: `send {"path": "/abs/dir"} or {"workspace_id": "agent_home"}`}
	case a.Path != "" && !filepath.IsAbs(a.Path):
		return &tools.FieldError{Field: "path", Problem: "is not absolute", Hint: "give the directory's absolute path"}
	}
	return nil
}

// useWorkspaceTool is UseWorkspace. Its run only validates and echoes the
// arguments; the agent decides the switch.
func useWorkspaceTool() tools.Tool {
	return tools.Typed(UseWorkspaceToolName,
		"Switch the workspace you work in: your commands and patches run there from your next tool call, and you stay "+
			"there across restarts. Give a directory (path) or an attached workspace_id; workspace_id agent_home returns to your home.",
		echoArgs[UseWorkspaceArgs](UseWorkspaceToolName))
}
