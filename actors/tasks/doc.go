// Package tasks owns an agent's background tasks while they run: the
// tasks supervisor (a root actor, beside the agents supervisor, so an
// agent's crash never stops its commands), the command_task actor of each
// promoted command (it owns the process: its input, its stop, its end),
// and the per-agent controller that serves exec.TaskHost and
// task.Controller, for command tasks and for the child_agent_task of a
// private child.
//
// The agent's journal holds every task's TaskRecord and is authoritative
// for its terminal state: tasks journals nothing itself. It reaches the
// agents and the runtime only through the Asker port, which the runtime
// implements, and speaks to an agent with the requests of protocol.go
// (Records, Start, Finish, RecordLaunch, Waiting), which the agent
// answers in its Receive.
//
// A command_task actor's state is touched only in its Receive; waiting
// for the process, writing its input, stopping it and computing its end
// run in goroutines the actor owns, cancelled and awaited when it stops.
// Host's index of live tasks is guarded by its mutex and may be read from
// any goroutine.
//
// tasks imports messages, tools, tools/exec, tools/task, actors/agentstate
// and actors/runtimetools; it must not import actors, persistence,
// providers, cmd or testkit.
package tasks
