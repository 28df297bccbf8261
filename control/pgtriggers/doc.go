// Package pgtriggers is the control API's trigger store (control.TriggerStore)
// on PostgreSQL, beside the cluster's journal: every node of a cluster finds
// every trigger, derives the same token for it from one shared key, and a
// delivery id seen through any node is admitted once. The tables are the
// journal's (persistence/pgjournal migrates them); Open needs a database
// the journal has opened.
package pgtriggers
