// Package runtimetools holds the tools an agent runs itself instead of
// through the tool registry: Sleep, RequestOperatorInput,
// ShouldRequestInput, NotifyOperator, SpawnAgent and the work-item tools.
// For each one it has the spec the model sees, the argument types and
// their validation (Tools, Is). A tool's Call only validates its arguments
// and echoes them, or answers what needs no state (ShouldRequestInput).
// What the call does to the agent is a Decision: for the work-item tools a
// pure function of the agent's state and Env here (Decisions), which names
// the plan-file I/O its result waits for as data; for the others the
// agent's (actors' runtime_tools.go). Either is journaled with the result.
//
// Like agentstate, it is pure: no actor system, storage, logging, clock,
// process or network (boundary_test.go).
package runtimetools
