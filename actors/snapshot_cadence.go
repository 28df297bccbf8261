package actors

import "github.com/holon-actors/holon-actors/messages"

// snapshotCadence paces a long-lived agent's snapshots by their size. A
// snapshot holds the whole state, its conversation up to the compaction
// window (hundreds of KB for an agent of thousands of turns), so saving one
// every SnapshotEvery events wrote many times the journal itself. An agent
// saves its next snapshot only once it has journaled at least as many bytes
// as its last snapshot holds (and SnapshotEvery events): snapshots then
// write no more than the journal does, and a replay after the newest one
// reads no more than that snapshot would.
type snapshotCadence struct {
	// seq and size are the last snapshot this activation saved; seq 0
	// when it has saved none (it may find older ones in the store).
	seq  uint64
	size int
	// journaled counts payload bytes appended since.
	journaled int
}

// appended counts evs toward the next snapshot.
func (c *snapshotCadence) appended(evs []messages.Event) {
	for i := range evs {
		c.journaled += len(evs[i].Payload)
	}
}

// due reports whether the journal since the last snapshot has grown to
// that snapshot's size.
func (c *snapshotCadence) due() bool { return c.journaled >= c.size }

// saved records a snapshot of size bytes at seq.
func (c *snapshotCadence) saved(seq uint64, size int) {
	*c = snapshotCadence{seq: seq, size: size}
}

// replaced is the seq of the snapshot a new one at seq replaces, to be
// deleted by its key; false when this activation saved none before (older
// snapshots are then looked for).
func (c *snapshotCadence) replaced(seq uint64) (uint64, bool) {
	return c.seq, c.seq != 0 && c.seq < seq
}
