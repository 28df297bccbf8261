package persistence

import (
	"context"
	"errors"
)

// Archiver is an optional ability of a Store (check it with a type
// assertion): it moves the head of a stream's journal into compressed
// archive segments beside it. Archived events stay part of the stream:
// Read and ReadPage return them as if they were still in the journal (read
// through the archive, slower), HighestSeq does not change, and DeleteUpTo
// deletes archived events like any other. A store without it keeps every
// event in its journal (retention falls back to keeping them, or to
// DeleteUpTo when the policy says drop).
type Archiver interface {
	// ArchiveUpTo moves the events of stream with seq <= upTo that are still
	// in its journal into archive segments and returns how many it moved.
	// Each segment is written and synced before the journal range it holds
	// is deleted, so a crash in the middle loses and duplicates nothing: a
	// segment whose range the journal still holds is rolled back (deleted)
	// when the store next opens or archives that stream.
	ArchiveUpTo(ctx context.Context, stream string, upTo uint64) (moved int, err error)

	// ArchivedSegments lists stream's archive segments, oldest first.
	ArchivedSegments(ctx context.Context, stream string) ([]ArchiveSegment, error)

	// RetainedFrom returns the lowest seq of stream that can still be in
	// its journal: every event below it was archived or deleted.
	RetainedFrom(ctx context.Context, stream string) (uint64, error)
}

// ArchiveSegment is one compressed file of archived events, From..To
// inclusive (some of which may be missing: deleted before or dropped as a
// corrupt tail).
type ArchiveSegment struct {
	From  uint64 `json:"from"`
	To    uint64 `json:"to"`
	Bytes int64  `json:"bytes"`
	Path  string `json:"path"`
}

// ErrArchiveDamaged is wrapped (with ErrCorrupt) when an archive segment
// cannot be read back: its file is truncated, fails its checksum, or holds
// records it should not. The journal's live part is unaffected.
var ErrArchiveDamaged = errors.New("persistence: archive segment damaged")
