// Package runtimetools holds the tools an agent runs itself instead of
// through the tool registry: Sleep, RequestOperatorInput,
// ShouldRequestInput, NotifyOperator, SpawnAgent, the work-item tools and
// the timer tools (CreateTimer, ListTimers, CancelTimer).
// For each one it has the spec the model sees, the argument types and
// their validation (Tools, Is). A tool's Call only validates its arguments
// and echoes them, or answers what needs no state (ShouldRequestInput).
// What the call does to the agent is a Decision, a pure function of the
// agent's state and Env here (Decisions), journaled with the result. A
// decision names the I/O its result waits for as data, which the agent
// does off its actor: the work-item tools' plan files (PlanIO), a
// worktree-mode SpawnAgent's git (WorktreeIO), a public_named one's new
// journal (CreateIO). A private child's actor is started by the agent from
// the task_started SpawnAgent's batch journals. Refusals answer instead of
// a call the agent's state forbids (a second question in one turn).
//
// Like agentstate, it is pure: no actor system, storage, logging, clock,
// process or network (boundary_test.go).
package runtimetools
