// Package agentstate is an agent's state and the only code that changes
// it: State, rebuilt from the agent's journal by Apply, one durable event
// at a time, the same live and in replay; the snapshot encoding of State
// (Snapshot, RestoreState, SnapshotOpenFacts); and the queries over it that
// the agent's actor, the runtime's API and boot recovery (OpenFacts) ask.
//
// It is pure: it reads no clock, mints no ids, does no I/O and logs
// nothing. Everything it knows comes from its arguments, so a test drives
// it with plain values (boundary_test.go keeps protoactor, persistence,
// zerolog, clocks, processes and the network out of its imports).
//
// It also holds the agent's decisions: what to journal when a message is
// admitted, a lifecycle command arrives, a turn starts or settles, a
// question is asked, answered or expires, a timer fires, work is taken up,
// a notification waits for a carrier, the budget or the loop breaker
// trips, the prompt of the next round is built, or supervision quarantines
// the agent. Each is a function of the State and an Env (env.go: the
// agent, the time, an id source, the runtime's configuration, a plan
// reader) returning a Batch the agent journals atomically; nothing in a
// decision reads a clock or mints an id by itself.
//
// Next is the decision over them all: what the agent does next (Idle,
// Record a Batch, CallModel, RunTool, SettleLaunches). The agent's loop
// journals and applies each Record and asks again, so applying a Batch
// must always change what Next decides.
//
// The timers an agent or its operator creates (timers.go) are decided here
// too: their schedule (timer_schedule.go: every, and cron read on a time
// zone's wall clock with the daylight-saving rule documented there), and
// what a fire delivers under the missed and overlap policies
// (timer_decisions.go). Cron expressions are parsed by robfig/cron, which
// is pure; time.LoadLocation reads the zone database, built into the
// binary.
//
// agentstate imports messages, tools, and the leaves of data that hold the
// conversation (providers/llm) and the records of commands, tasks and
// worktrees (tools/exec/execspec, tools/task/taskspec,
// tools/worktree/worktreespec), never providers, tools/exec, tools/task or
// tools/worktree themselves; actors and actors/runtimetools import
// agentstate, never the other way round.
package agentstate
