package runtimetools

import (
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/task/taskspec"
)

// SpawnAgentToolName is the runtime-owned delegation tool. The agent runs
// it itself: a private child is its own child actor and its supervision
// task is a record in its own journal.
const SpawnAgentToolName = "SpawnAgent"

// The SpawnAgent presets.
const (
	PresetPrivateChild = "private_child"
	PresetPublicNamed  = "public_named"
)

// maxInitialMessage bounds SpawnAgent's initial_message.
const maxInitialMessage = 64 << 10

// SpawnAgentArgs are SpawnAgent's arguments. initial_message is the only
// spawn text field.
type SpawnAgentArgs struct {
	Preset         string `json:"preset,omitempty" jsonschema:"private_child (default): a private child agent you supervise through the returned task handle (TaskStatus, TaskOutput, TaskInput for follow-ups, TaskStop); public_named: a new self-owned public agent named agent_id."`
	InitialMessage string `json:"initial_message,omitempty" jsonschema:"The child's first message: the whole delegated assignment, with what to return. Required for private_child; optional bootstrap input for public_named."`
	AgentID        string `json:"agent_id,omitempty" jsonschema:"The new agent's id; required for public_named, refused for private_child (the runtime names private children)."`
	WorkspaceMode  string `json:"workspace_mode,omitempty" jsonschema:"inherit (default): the child works in your workspace. worktree (private_child only): the child works in its own git worktree on a new branch made from your repository's HEAD (uncommitted changes are not in it); when its task ends the worktree is removed if untouched, else kept for you to review, merge or discard."`
}

// AdjustSchema adds the enums.
func (SpawnAgentArgs) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["preset"].Enum = []any{PresetPrivateChild, PresetPublicNamed}
	s.Properties["workspace_mode"].Enum = []any{WorkspaceInherit, WorkspaceWorktree}
}

// The SpawnAgent workspace modes.
const (
	WorkspaceInherit  = "inherit"
	WorkspaceWorktree = "worktree"
)

// Validate checks what the schema cannot.
func (a *SpawnAgentArgs) Validate() error {
	if a.Preset == "" {
		a.Preset = PresetPrivateChild
	}
	if a.WorkspaceMode == "" {
		a.WorkspaceMode = WorkspaceInherit
	}
	if a.WorkspaceMode == WorkspaceWorktree && a.Preset != PresetPrivateChild {
		return &tools.FieldError{Field: "workspace_mode", Problem: "worktree is only for a private_child",
			Hint: "omit workspace_mode for public_named, or use preset private_child for isolated work"}
	}
	if len(a.InitialMessage) > maxInitialMessage {
		return &tools.FieldError{Field: "initial_message", Problem: fmt.Sprintf("is %d bytes, over the %d-byte limit", len(a.InitialMessage), maxInitialMessage),
			Hint: "put long material in a file and name its path in initial_message"}
	}
	switch a.Preset {
	case PresetPrivateChild:
		if strings.TrimSpace(a.InitialMessage) == "" {
			return &tools.FieldError{Field: "initial_message", Problem: "is required for a private_child",
				Hint: "write the whole assignment: what to do, and what to report back"}
		}
		if a.AgentID != "" {
			return &tools.FieldError{Field: "agent_id", Problem: "is not accepted for a private_child: the runtime names it",
				Hint: "omit agent_id, or use preset public_named for a named public agent"}
		}
	case PresetPublicNamed:
		if err := messages.ValidateAgentID(a.AgentID); err != nil {
			return &tools.FieldError{Field: "agent_id", Problem: "invalid agent id: " + err.Error(), Hint: "give public_named a plain agent id such as \"researcher\""}
		}
	}
	return nil
}

// SpawnResult is SpawnAgent's result: agent_id only for public_named; the
// supervision handle and projection for private_child.
type SpawnResult struct {
	AgentID           string                     `json:"agent_id"`
	ChildAgentID      string                     `json:"child_agent_id,omitempty"`
	SupervisionTaskID string                     `json:"supervision_task_id,omitempty"`
	TaskHandle        *SpawnTaskHandle           `json:"task_handle,omitempty"`
	ChildSupervision  *taskspec.ChildSupervision `json:"child_supervision,omitempty"`
}

// SpawnTaskHandle is the parent-visible handle of a private child.
type SpawnTaskHandle struct {
	TaskID     string `json:"task_id"`
	Kind       string `json:"kind"`
	WaitPolicy string `json:"wait_policy"`
	Summary    string `json:"summary"`
}

// spawnTool is SpawnAgent. Its run only validates and echoes the
// arguments (with their defaults); the agent decides the spawn.
func spawnTool() tools.Tool {
	return tools.Typed(SpawnAgentToolName,
		"Delegate to another agent. preset private_child (default) starts a private child agent with initial_message "+
			"as its assignment and returns a background task handle: watch it with TaskStatus/TaskOutput, send follow-ups "+
			"with TaskInput, stop it (and its own children) with TaskStop; its final result comes back to you as a "+
			"task_result message. preset public_named creates a separate public agent named agent_id.",
		echoArgs[SpawnAgentArgs](SpawnAgentToolName))
}
