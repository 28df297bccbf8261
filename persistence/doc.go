// Package persistence stores agent journals and snapshots, and the files
// (artifacts) that journal events refer to.
//
// A Journal is an append-only log per stream (one stream per agent id) with
// consecutive, never-reused sequence numbers (event_seq). A SnapshotStore
// keeps serialized agent state with the sequence number it includes, so
// recovery is "latest snapshot + the tail after it". Open returns the
// Badger-backed Store and locks the data directory until Close; NewMemStore
// returns an in-memory Store for tests. Both pass one conformance suite
// (persistence/storetest), and so does the PostgreSQL Store in
// persistence/pgjournal, which keeps the same sealed records through the
// exported store kit (store_kit.go).
//
// Durability: Append returns only after its batch is synced to disk. All
// writes go through one committer goroutine that packs the batches of many
// streams into one transaction and one sync (group commit). Every record
// carries a CRC-32C and its sequence number: a corrupt record at a stream's
// tail is moved aside at Open and reported in Health; corruption before the
// tail quarantines that stream only. A failed sync makes the store refuse
// everything until reopened (fail-stop), so nothing is acknowledged that
// might not be durable; low disk space refuses writes before they reach
// Badger (ErrDiskFull) and writes resume when space returns.
//
// Concurrency: every Store method is safe for concurrent use; Close waits
// for writes in flight. The committer and the value-log GC goroutine are
// owned by the store and end in Close.
//
// persistence imports messages, Badger and gofrs/flock, and nothing else
// from this module; it knows nothing of actors, providers or tools.
package persistence
