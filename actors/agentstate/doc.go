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
// agentstate imports messages, providers, tools and tools/task; actors
// imports agentstate, never the other way round.
package agentstate
