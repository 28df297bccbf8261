package persistence

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

var (
	// ErrLocked is returned by Open when another process owns the data
	// directory; the error's text names the directory and the owner's pid.
	ErrLocked = errors.New("persistence: data directory in use")
	// ErrClosed is returned by every operation on a closed store.
	ErrClosed = errors.New("persistence: store closed")
	// ErrFailed is returned by writes after a sync failed: the store must be
	// reopened before it accepts writes again.
	ErrFailed = errors.New("persistence: store failed, reopen it")
	// ErrSeqConflict is returned by AppendAfter when the stream has moved on.
	ErrSeqConflict = errors.New("persistence: sequence conflict")
	// ErrQuarantined is returned for a stream whose journal is corrupt
	// before its tail.
	ErrQuarantined = errors.New("persistence: stream quarantined")
	// ErrCorrupt is wrapped by every error about a record that fails its
	// checksum or cannot be decoded.
	ErrCorrupt = errors.New("persistence: corrupt record")
	// ErrGap is wrapped (with ErrCorrupt) when a stream's events are not
	// contiguous: a seq between its retention mark and its highest seq is
	// neither stored nor moved aside as a corrupt tail, so it was lost.
	ErrGap = errors.New("persistence: journal gap")
	// ErrDamaged is returned by Open when the storage engine cannot open
	// the data directory because its files are damaged (a truncated or
	// missing table, a broken manifest). Nothing was changed.
	ErrDamaged = errors.New("persistence: data directory damaged")
	// ErrInvalidStream is returned for an empty, oversized or malformed
	// stream name.
	ErrInvalidStream = errors.New("persistence: invalid stream name")
	// ErrDiskFull is returned for writes while the data directory's file
	// system has less free space than Options.MinFreeBytes. Nothing is
	// written; writes succeed again once space is freed.
	ErrDiskFull = errors.New("persistence: disk full")
	// ErrBatchTooLarge is returned when one Append or SaveSnapshot is
	// larger than the engine can write atomically.
	ErrBatchTooLarge = errors.New("persistence: batch too large")
)

// maxStreamLen bounds stream names; agent ids are far shorter.
const maxStreamLen = 200

func validateStream(stream string) error {
	if stream == "" || len(stream) > maxStreamLen {
		return fmt.Errorf("%w: %q must be 1..%d bytes", ErrInvalidStream, stream, maxStreamLen)
	}
	if !utf8.ValidString(stream) {
		return fmt.Errorf("%w: %q is not valid UTF-8", ErrInvalidStream, stream)
	}
	for i := 0; i < len(stream); i++ {
		if c := stream[i]; c < 0x20 || c == 0x7f {
			return fmt.Errorf("%w: %q contains a control byte at %d", ErrInvalidStream, stream, i)
		}
	}
	return nil
}

// ErrEmptyBatch is returned by Append for a batch with no events.
var ErrEmptyBatch = errors.New("persistence: empty batch")
