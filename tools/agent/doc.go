// Package agent is the AgentGet tool: the agent-plane inspection
// primitive. It returns an AgentGetResult with the agent summary
// (identity with visibility, ownership, profile_preset and lineage; status,
// work focus, active tasks and children, workspace), never a transcript or
// prompt internals. The summary comes from an Inspector the runtime
// implements.
//
// agent imports tools, tools/task and messages and nothing else from this
// module.
package agent
