// Package actors is where the runtime comes together: the host (root) actor
// that owns the journal, the control surface and the clock; the agents,
// tasks and timer supervisors; agent and task actors; admission; the turn
// loop with its safe points; and recovery at boot (snapshot + replay, then
// reconciling every open fact). Its leaves live in packages of their own,
// which import nothing of actors: the four-band mailbox (actors/mailbox),
// the timer service (actors/timers), the provider-transport actors
// (actors/transport) and the background tasks (actors/tasks: the tasks
// supervisor, command_task actors and the task controller), which reach
// the runtime through their Asker port (task_port.go).
//
// An agent is a pure core and a thin shell. The core is actors/agentstate:
// the state and Apply, its only writer, which runs the same live and in
// replay; and actors/runtimetools: the specs and argument checks of the
// tools the agent runs itself. The shell is the agent actor here. Its
// advance is a loop over agentstate.Next: it persists each batch Next
// records (persist: append, then Apply), and then does what the batch asks
// of the world, read off the batch itself (effects.go: arm its timers,
// dispatch its notifications, report its usage, start the actors of the
// children whose tasks it started), so no step arms, sends or spawns
// anything by hand; a model call or a tool runs in a step goroutine. A
// runtime-owned tool is refused or validated by its Call, then decided
// purely by runtimetools.Refusals and Decisions; the I/O a decision's
// result waits for (a plan file, a worktree's git, a public agent's new
// journal) runs in the step goroutine (work_item_decided.go,
// spawn_agent.go).
//
// An agent reaches the runtime only through its Host port (agent_host.go:
// forward to an agent, adopt and release a child, deliver a notification,
// its task controller), which the runtime implements. AgentDeps is
// configuration only; what the runtime wires into each agent's actor (its
// Host, the timer service, the runtime-owned tools, the children's
// supervision strategy) is passed beside it.
//
// An actor's state is touched only inside its Receive. Receive never blocks
// on a model, a tool, a process or a file: the plan previews of a prompt
// and of the work-item views are read by a goroutine (plan_cache.go), as
// is a runtime tool's plan file, and a child's git worktree is made and
// cleaned up by one (child_worktree.go); slow work runs in a goroutine owned by
// the actor, cancelled when it stops, and comes back as a message carrying
// a step generation. Agents are addressed by agent id, never by PID.
//
// The actor tree is the supervision tree: the agents supervisor is the
// parent of every public agent's actor, and an agent's actor is the parent
// of its private children's (children.go). A request for a child without
// a running actor is routed through its parent, which starts it only
// while its supervision task runs; a parent re-creates its children when
// it starts. Command tasks live under the tasks supervisor instead, so an
// agent's crash never kills its processes.
//
// actors may import every other package of this module except cmd and
// testkit. It is the only package where persistence, supervision, tools and
// providers meet; none of them imports actors.
package actors
