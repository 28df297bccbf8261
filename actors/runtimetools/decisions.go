package runtimetools

import "github.com/holon-actors/holon-actors/actors/agentstate"

// The registry has a file of its own: it names every tool's decision, and
// the decisions name decision.go's types, so the files point one way.

// Decisions are the pure decisions of the runtime-owned tools, by name.
var Decisions = map[string]Decide{
	agentstate.CreateWorkItemToolName:   decideArgs(CreateWorkItem),
	agentstate.PickWorkItemToolName:     decideArgs(PickWorkItem),
	agentstate.UpdateWorkItemToolName:   decideArgs(UpdateWorkItem),
	agentstate.CompleteWorkItemToolName: decideArgs(CompleteWorkItem),
	agentstate.SleepToolName:            Sleep,
	agentstate.RequestInputToolName:     RequestInput,
	agentstate.ShouldAskToolName:        ShouldAsk,
	agentstate.NotifyToolName:           Notify,
	SpawnAgentToolName:                  SpawnAgent,
	CreateTimerToolName:                 decideArgs(CreateTimer),
	ListTimersToolName:                  decideArgs(ListTimers),
	CancelTimerToolName:                 decideArgs(CancelTimer),
	UseWorkspaceToolName:                decideArgs(UseWorkspace),
	MemorySearchToolName:                decideArgs(MemorySearch),
	MemoryGetToolName:                   decideArgs(MemoryGet),
}
