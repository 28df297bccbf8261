// Package pgjournal is the persistence.Store on PostgreSQL: the journal a
// runtime uses when it is given a postgres:// URL instead of a data
// directory, and which several processes can share.
//
// Tables (schema version 1, migrated in code at Open; see schema.go):
// holon_streams (stream, highest), holon_events (stream, seq, record) and
// holon_snapshots (stream, seq, record). Records are the persistence
// package's sealed records, the bytes the Badger store keeps: each carries
// a CRC-32C and its seq, so a damaged row is refused on read, and a corrupt
// snapshot is skipped like Badger skips it (counted in Health).
//
// Writes: every Append and AppendAfter is one fenced statement (the
// stream's highest seq is moved only WHERE it still equals the writer's
// view, and the events are inserted from the same statement), so two
// writers, in one process or on two machines, can never both win. Appends
// go through committer goroutines, each owning a share of the streams by
// hash, that pack the requests of many streams into one pipelined
// transaction and one COMMIT (group commit). Append returns once COMMIT has
// returned, that is once PostgreSQL has made the events durable.
//
// Subscriptions: a commit notifies the channel holon_journal with each
// stream it appended to; every Store on the database LISTENs on it, so a
// Subscription sees appends made by other processes too.
//
// Concurrency: every method is safe for concurrent use. The committers and
// the listener are owned by the Store and end in Close, which waits for
// appends in flight.
//
// pgjournal imports persistence, messages, pgx and zerolog.
package pgjournal
