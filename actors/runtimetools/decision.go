package runtimetools

import (
	"encoding/json"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/worktree/worktreespec"
)

// Decision is what a runtime-owned tool's call, once its Call accepted the
// arguments, does to the agent: the Result the model sees, and the Batch
// journaled with it when it succeeds. An unset Result (no Status) keeps
// the result of the Call that validated the arguments. When Plan,
// Worktree, Create or Workspace is set, the result waits for I/O the agent
// does off its actor (a plan file, git, another agent's journal, a path
// resolved): Result is unset and their Finish builds it.
type Decision struct {
	Result    tools.Result
	Batch     agentstate.Batch
	Plan      *PlanIO
	Worktree  *WorktreeIO
	Create    *CreateIO
	Workspace *WorkspaceIO
	Memory    *MemoryIO
}

// PlanIO is the plan-file I/O a work-item tool's result waits for. Seed,
// when set, is written as work item ItemID's plan first; then the plan is
// read, and Finish builds the result from what was read (art, nil when
// there is no plan) and the write's failure (seedErr). Finish touches no
// agent state: it may run on any goroutine.
type PlanIO struct {
	ItemID string
	Seed   *string
	Finish func(art *agentstate.PlanArtifact, seedErr error) tools.Result
}

// WorktreeIO is the git a worktree-mode SpawnAgent's result waits for:
// planning the worktree of task TaskID, on a new branch Branch, from the
// repository of the agent's execution root. The agent plans it off its
// actor; a refusal of the planning is the call's result, else Finish
// builds the result and its batch from the planned worktree. Finish
// touches no agent state: it may run on any goroutine.
type WorktreeIO struct {
	TaskID, Branch string
	Finish         func(wt worktreespec.Info) (tools.Result, agentstate.Batch)
}

// CreateIO is the journal a public_named SpawnAgent's result waits for:
// the first events of agent AgentID, written only if it has no journal.
// The agent writes them (adding its command policy for its creature), then
// Finish builds the result from whether the agent existed already or the
// write failed (err).
type CreateIO struct {
	AgentID string
	Events  agentstate.Batch
	Finish  func(exists bool, err error) tools.Result
}

// Decide is a tool's decision on a validated call (Decisions).
type Decide func(st *agentstate.State, env agentstate.Env, call messages.ToolCall) Decision

// decideArgs adapts a decision on arguments A to the call whose arguments
// the tool has just accepted.
func decideArgs[A any](decide func(*agentstate.State, agentstate.Env, A) Decision) Decide {
	return func(st *agentstate.State, env agentstate.Env, call messages.ToolCall) Decision {
		var args A
		_ = json.Unmarshal(call.Arguments, &args)
		return decide(st, env, args)
	}
}
