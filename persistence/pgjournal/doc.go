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
// Writes: appends are fenced in the statement that writes them: a
// stream's highest seq moves only WHERE it still equals the writer's view,
// and the events are inserted from the rows that moved, so two writers, in
// one process or on two machines, can never both win. Appends go through a
// committer goroutine (Config.Committers, each owning a share of the
// streams by hash) that packs the queued appends of many streams into one
// such statement, so one transaction and one sync (group commit); a
// stream's second append in the same group waits for the next one, so its
// order holds. Append returns once the statement has committed, that is
// once PostgreSQL has made the events durable. An Append (no fence) uses
// the highest seq the committer last saw and is retried when another
// process moved the stream meanwhile.
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
