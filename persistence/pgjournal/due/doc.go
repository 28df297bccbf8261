// Package due is the due-time index's scanner: it finds in PostgreSQL the
// agents whose next due time (a timer, a suspension deadline, a retry, a
// work item's recheck) has come while they are active nowhere, claims each
// once across every node scanning the same database, and wakes it.
//
// The index is the due column of the stream headers the journal keeps
// (pgjournal.Store.PublishHeader), trusted only while the header is at its
// stream's highest seq: an agent whose journal moved past its header is
// active, or was when its node died, and waking it then is the business of
// whoever takes its activation over, not of the index.
//
// A claim is a row of holon_due_claims naming the claimer, the header seq
// it claimed and when it expires. A due agent is claimed when it has no
// claim, its claim expired (the claimer died or its wake did not take), or
// its header moved on since (the agent acted and is due again). The claim
// only decides who wakes the agent; the fire itself is made once by the
// agent's own fenced journal append, so a second wake is harmless and a
// lost one is retried once the claim expires.
//
// The scanner works on the schema pgjournal migrates: open the journal
// (pgjournal.Open) on the database before scanning it.
package due
