package persistence

import (
	"context"
	"math"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// Journal is an append-only, per-stream event log. A stream is one agent's
// journal, named by its agent id.
//
// Sequence numbers (event_seq) start at 1, are consecutive within a stream as
// assigned by Append, and are never reused: not after DeleteUpTo, retention
// or a dropped corrupt tail. All methods are safe for concurrent use.
type Journal interface {
	// Append writes events atomically (all or none) at HighestSeq+1,
	// HighestSeq+2, … and returns the first sequence number it assigned. It
	// returns only once the events are durable: an acknowledged append
	// survives a crash of the process or the machine. The callers' events
	// are not modified; their Seq fields are ignored.
	Append(ctx context.Context, stream string, events []messages.Event) (first uint64, err error)

	// AppendAfter is Append with a writer fence: it appends only when the
	// stream's HighestSeq equals after, and otherwise returns an error
	// wrapping ErrSeqConflict and writes nothing.
	AppendAfter(ctx context.Context, stream string, after uint64, events []messages.Event) (first uint64, err error)

	// Read returns the events of stream with from <= seq <= to in order,
	// at most limit of them (limit <= 0 means no limit). Deleted events are
	// skipped. Reading a stream that was never written returns no events.
	Read(ctx context.Context, stream string, from, to uint64, limit int) ([]messages.Event, error)

	// ReadPage is Read bounded by size too: it stops before the event that
	// would bring the stored size of the events read (their records, about
	// their payloads) past maxBytes, but always returns the range's first
	// event whatever its size, so a reader paging on keeps moving.
	// maxBytes <= 0 means no size bound.
	ReadPage(ctx context.Context, stream string, from, to uint64, limit, maxBytes int) ([]messages.Event, error)

	// HighestSeq returns the highest sequence number ever assigned in
	// stream, or 0 when nothing was ever appended. Deletion does not lower it.
	HighestSeq(ctx context.Context, stream string) (uint64, error)

	// DeleteUpTo permanently deletes the events of stream with seq <= upTo
	// (retention). It does not change HighestSeq.
	DeleteUpTo(ctx context.Context, stream string, upTo uint64) error

	// Streams lists every stream that was ever appended to, sorted.
	Streams(ctx context.Context) ([]string, error)

	// Subscribe returns a subscription that is signalled after every
	// durable Append to stream. Close it when done.
	Subscribe(stream string) *Subscription
}

// Snapshot is an opaque serialized state of a stream that includes every
// event up to and including Seq (lastIncludedSeq).
type Snapshot struct {
	Stream    string
	Seq       uint64
	Timestamp time.Time
	Data      []byte
}

// SnapshotCriteria selects snapshots by sequence number and timestamp, all
// bounds inclusive. A zero MaxSeq or MaxTimestamp means "no upper bound", so
// SnapshotCriteria{MinSeq: 15} reads naturally; AtOrBelow(seq) sets an upper
// bound even when seq is 0.
type SnapshotCriteria struct {
	MaxSeq       uint64
	MaxTimestamp time.Time
	MinSeq       uint64
	MinTimestamp time.Time

	maxSeqSet bool // MaxSeq is a bound even when 0 (see AtOrBelow)
}

// LatestSnapshot selects every snapshot; LoadSnapshot then returns the newest.
func LatestSnapshot() SnapshotCriteria { return SnapshotCriteria{} }

// AtOrBelow selects snapshots with Seq <= seq.
func AtOrBelow(seq uint64) SnapshotCriteria { return SnapshotCriteria{MaxSeq: seq, maxSeqSet: true} }

// maxSeq is the effective inclusive upper bound on Seq.
func (c SnapshotCriteria) maxSeq() uint64 {
	if c.MaxSeq == 0 && !c.maxSeqSet {
		return math.MaxUint64
	}
	return c.MaxSeq
}

func (c SnapshotCriteria) matches(seq uint64, ts time.Time) bool {
	if seq > c.maxSeq() || seq < c.MinSeq {
		return false
	}
	if !c.MaxTimestamp.IsZero() && ts.After(c.MaxTimestamp) {
		return false
	}
	return c.MinTimestamp.IsZero() || !ts.Before(c.MinTimestamp)
}

// SnapshotStore keeps snapshots per stream. All methods are safe for
// concurrent use.
type SnapshotStore interface {
	// SaveSnapshot stores s durably; a snapshot at the same Seq is replaced.
	SaveSnapshot(ctx context.Context, s Snapshot) error

	// LoadSnapshot returns the newest snapshot of stream (highest Seq)
	// matching c. ok is false when none matches. A snapshot that fails its
	// checksum is skipped (and reported), so the caller falls back to an
	// older one plus a longer replay.
	LoadSnapshot(ctx context.Context, stream string, c SnapshotCriteria) (s Snapshot, ok bool, err error)

	// DeleteSnapshot deletes the snapshot of stream at seq, if any.
	DeleteSnapshot(ctx context.Context, stream string, seq uint64) error

	// DeleteSnapshots deletes every snapshot of stream matching c.
	DeleteSnapshots(ctx context.Context, stream string, c SnapshotCriteria) error
}

// Store is a Journal and a SnapshotStore over one storage engine.
type Store interface {
	Journal
	SnapshotStore
	// Health reports what recovery found and what has gone wrong since.
	Health() Health
	// Close releases the store. It waits for in-flight appends.
	Close() error
}

// Health is what a store knows about damage to its data.
type Health struct {
	// DroppedTails lists undecodable records found at the tail of a stream
	// and dropped at open; their sequence numbers are not reused.
	DroppedTails []DroppedRecord
	// Quarantined lists streams with corruption before their tail. They
	// refuse appends and reads until repaired; every other stream works.
	Quarantined []Quarantine
	// Lost lists events missing from the data files that the store found
	// when it opened (a lost or truncated MANIFEST, WAL or table file),
	// checked against the integrity marks kept beside them. Their streams
	// are quarantined: their history is incomplete.
	Lost []LostRange
	// TornWAL lists write-ahead log tails that were not whole transactions
	// and that the engine dropped when the store opened: after a crash,
	// normally writes that were cut and never acknowledged.
	TornWAL []TornWAL
	// Notes are other findings of the open worth an operator's eye, such
	// as integrity marks that had to be rebuilt.
	Notes []string
	// SkippedSnapshots counts snapshots that failed their checksum on load.
	SkippedSnapshots int
	// Failed is set once a sync failed: the store refuses every write until
	// it is reopened, so nothing half-written is ever acknowledged.
	Failed string
	// DiskFull is set while the data directory's file system has less free
	// space than Options.MinFreeBytes: appends fail with ErrDiskFull.
	DiskFull string
}

// DroppedRecord identifies one record dropped from a stream's tail.
type DroppedRecord struct {
	Stream string `json:"stream"`
	Seq    uint64 `json:"seq"`
	Reason string `json:"reason"`
}

// LostRange is a run of events, From..To inclusive, missing from a stream.
type LostRange struct {
	Stream string `json:"stream"`
	From   uint64 `json:"from"`
	To     uint64 `json:"to"`
}

// Quarantine records why a stream was quarantined.
type Quarantine struct {
	Stream string    `json:"stream"`
	Seq    uint64    `json:"seq"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}
