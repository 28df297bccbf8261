package exec

import "github.com/holon-actors/holon-actors/tools/exec/execspec"

// TaskKindCommand is the task kind of a promoted command.
const TaskKindCommand = execspec.TaskKindCommand

// The records of a command live in tools/exec/execspec, a leaf without
// process code, so an agent's pure state can hold them; these names are
// the same types.
type (
	// CommandIdentity is execspec.CommandIdentity: what TaskStatus shows
	// as task.command and what duplicate detection compares.
	CommandIdentity = execspec.CommandIdentity
	// OutputFiles is execspec.OutputFiles: the artifacts a process writes.
	OutputFiles = execspec.OutputFiles
	// Launch is execspec.Launch: the identity of a gated command, made
	// durable before StartGated's Release.
	Launch = execspec.Launch
)
