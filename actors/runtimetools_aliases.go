package actors

import "github.com/holon-actors/holon-actors/actors/runtimetools"

// The runtime-owned tools' specs and arguments moved to actors/runtimetools;
// these names stay for one release (STYLE §8).

// ShouldAskArgs is runtimetools.ShouldAskArgs.
//
// Deprecated: use runtimetools.ShouldAskArgs.
type ShouldAskArgs = runtimetools.ShouldAskArgs

// NotifyArgs is runtimetools.NotifyArgs.
//
// Deprecated: use runtimetools.NotifyArgs.
type NotifyArgs = runtimetools.NotifyArgs

// SpawnAgentArgs is runtimetools.SpawnAgentArgs.
//
// Deprecated: use runtimetools.SpawnAgentArgs.
type SpawnAgentArgs = runtimetools.SpawnAgentArgs

// SpawnResult is runtimetools.SpawnResult.
//
// Deprecated: use runtimetools.SpawnResult.
type SpawnResult = runtimetools.SpawnResult

// SpawnTaskHandle is runtimetools.SpawnTaskHandle.
//
// Deprecated: use runtimetools.SpawnTaskHandle.
type SpawnTaskHandle = runtimetools.SpawnTaskHandle

// TodoArg is runtimetools.TodoArg.
//
// Deprecated: use runtimetools.TodoArg.
type TodoArg = runtimetools.TodoArg

// CreateWorkItemArgs is runtimetools.CreateWorkItemArgs.
//
// Deprecated: use runtimetools.CreateWorkItemArgs.
type CreateWorkItemArgs = runtimetools.CreateWorkItemArgs

// PickWorkItemArgs is runtimetools.PickWorkItemArgs.
//
// Deprecated: use runtimetools.PickWorkItemArgs.
type PickWorkItemArgs = runtimetools.PickWorkItemArgs

// UpdateWorkItemArgs is runtimetools.UpdateWorkItemArgs.
//
// Deprecated: use runtimetools.UpdateWorkItemArgs.
type UpdateWorkItemArgs = runtimetools.UpdateWorkItemArgs

// CompleteWorkItemArgs is runtimetools.CompleteWorkItemArgs.
//
// Deprecated: use runtimetools.CompleteWorkItemArgs.
type CompleteWorkItemArgs = runtimetools.CompleteWorkItemArgs

// Constants that moved to runtimetools.
//
// Deprecated: use the runtimetools names.
const (
	SpawnAgentToolName  = runtimetools.SpawnAgentToolName
	PresetPrivateChild  = runtimetools.PresetPrivateChild
	PresetPublicNamed   = runtimetools.PresetPublicNamed
	WorkspaceInherit    = runtimetools.WorkspaceInherit
	WorkspaceWorktree   = runtimetools.WorkspaceWorktree
	DefaultRecheckAfter = runtimetools.DefaultRecheckAfter
)
