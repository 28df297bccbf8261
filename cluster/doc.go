// Package cluster runs holon-actors on several nodes. Proto.Actor cluster
// places agents by identity (best effort), PostgreSQL holds the journal
// every node reads and writes, and the journal decides who writes: each
// agent activation journals agent_activated fenced at the stream's highest
// seq, so an older activation still running elsewhere fails its next write
// and stops (package actors, activation.go).
//
// Membership (package cluster/pgmembers) is a lease table in the same
// PostgreSQL.
package cluster
