// Package pgmembers is cluster membership on PostgreSQL leases: each node
// holds a row in cluster_members whose lease it renews; every node polls
// the rows whose lease has not lapsed and hands them to Proto.Actor as the
// cluster topology. A node whose lease lapsed (it was frozen, or cut off
// from the database, longer than the lease) finds out at its next renewal:
// the others have dropped it, and Proto.Actor blocks a member id that left
// for good, so it fences itself (its Lost callback: stop its agents) and
// must rejoin under a new id, that is as a restarted node.
//
// Why PostgreSQL rather than the etcd provider of the pinned Proto.Actor:
// in cluster mode PostgreSQL is already required (the journal), so leases
// there add no second stateful service to run, secure and back up; lease
// time is the database's clock (now()), one clock for every node; and the
// pinned etcd provider does not rejoin after a lease loss (upstream issue
// 1133), the very case a partition produces.
package pgmembers
