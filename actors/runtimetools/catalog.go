package runtimetools

import (
	"slices"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/tools"
)

// Tools are the runtime-owned tools, in the order the model sees them:
// Sleep, RequestOperatorInput, ShouldRequestInput, NotifyOperator when
// notify is set, SpawnAgent, UseWorkspace, the work-item tools, the timer tools and
// the memory tools. Each one's Call only
// validates the arguments (and answers what needs no state); the agent
// decides the rest.
func Tools(notify bool) []tools.Tool {
	ts := append([]tools.Tool{sleepTool{}}, operatorTools(notify)...)
	ts = append(ts, spawnTool(), useWorkspaceTool())
	ts = append(ts, workItemToolset...)
	ts = append(ts, timerToolset...)
	return append(ts, memoryToolset...)
}

// names are the names of every runtime-owned tool.
var names = []string{agentstate.SleepToolName, agentstate.RequestInputToolName, agentstate.ShouldAskToolName,
	agentstate.NotifyToolName, SpawnAgentToolName, agentstate.CreateWorkItemToolName, agentstate.PickWorkItemToolName,
	agentstate.UpdateWorkItemToolName, agentstate.CompleteWorkItemToolName,
	CreateTimerToolName, ListTimersToolName, CancelTimerToolName, UseWorkspaceToolName,
	MemorySearchToolName, MemoryGetToolName}

// Is reports a runtime-owned tool: the agent runs it itself, and no tool
// of the registry may take its name.
func Is(name string) bool { return slices.Contains(names, name) }
