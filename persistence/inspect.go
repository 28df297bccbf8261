package persistence

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"

	"github.com/dgraph-io/badger/v4"
)

// Report is what Inspect found in a data directory.
type Report struct {
	Dir string `json:"dir"`
	// OpenError is set when the storage engine cannot open the directory
	// (damaged files); nothing else could be checked then.
	OpenError string `json:"open_error,omitempty"`
	// TornWAL lists write-ahead log tails the engine drops when it opens.
	TornWAL []TornWAL `json:"torn_wal,omitempty"`
	// Marks describes the integrity marks: "ok", "missing" or a torn tail.
	Marks   string         `json:"marks"`
	Streams []StreamReport `json:"streams"`
	// Healthy is true when nothing is damaged, quarantined or lost.
	Healthy bool `json:"healthy"`
}

// StreamReport is one stream's state in a Report.
type StreamReport struct {
	Stream string `json:"stream"`
	// Highest is the highest seq assigned; MarkHighest what the integrity
	// marks say it should be (0 when they do not know the stream).
	Highest     uint64 `json:"highest_seq"`
	MarkHighest uint64 `json:"mark_highest_seq,omitempty"`
	// RetainedFrom is the first seq retention kept (1 without retention).
	RetainedFrom uint64 `json:"retained_from"`
	Events       int    `json:"events"`
	Snapshots    int    `json:"snapshots"`
	// SnapshotSeq is the seq of the newest readable snapshot (0 for none):
	// a start resumes the agent from it and reads only the events after.
	SnapshotSeq uint64 `json:"snapshot_seq,omitempty"`
	// Dropped counts records moved aside as a corrupt tail earlier.
	Dropped int `json:"dropped"`
	// Gaps are runs of seqs that should be present and are not.
	Gaps []LostRange `json:"gaps,omitempty"`
	// Corrupt are the seqs of events failing their checksum.
	Corrupt []uint64 `json:"corrupt,omitempty"`
	// CorruptSnapshots are the seqs of snapshots failing their checksum.
	CorruptSnapshots []uint64    `json:"corrupt_snapshots,omitempty"`
	Quarantine       *Quarantine `json:"quarantine,omitempty"`
	// Status is ok, tail_torn, damaged or quarantined; Repair says what
	// can be done about it.
	Status string `json:"status"`
	Repair string `json:"repair,omitempty"`
}

// Stream statuses in a Report.
const (
	StreamOK          = "ok"
	StreamTailTorn    = "tail_torn"
	StreamDamaged     = "damaged"
	StreamQuarantined = "quarantined"
)

// Inspect checks the data directory of o offline, without repairing
// anything: it takes the directory's lock (failing with ErrLocked, naming
// the owner, when a runtime holds it) and reads every record of every
// stream. The engine itself replays its write-ahead log as it opens, as a
// start would.
func Inspect(o Options) (Report, error) {
	r := Report{Dir: o.Dir}
	lock, err := lockDir(o.Dir)
	if err != nil {
		return r, err
	}
	defer lock.unlock()
	if r.TornWAL, err = findTornWAL(o.Dir); err != nil {
		return r, err
	}
	mr, err := readMarks(o.Dir)
	if err != nil {
		return r, err
	}
	r.Marks = marksState(mr)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	db, err := openEngine(badgerOptions(o))
	if err != nil {
		if !errors.Is(err, ErrDamaged) {
			return r, err
		}
		r.OpenError = err.Error()
		return r, nil
	}
	defer db.Close()
	err = db.View(func(txn *badger.Txn) error {
		streams := inspectStreams(txn, mr)
		for _, stream := range streams {
			r.Streams = append(r.Streams, inspectStream(txn, stream, mr.marks[stream]))
		}
		return nil
	})
	if err != nil {
		return r, fmt.Errorf("inspect %s: %w", o.Dir, err)
	}
	// Missing marks lose nothing where there are no streams (as at Open).
	r.Healthy = len(r.TornWAL) == 0 && (r.Marks == "ok" || r.Marks == "missing" && len(r.Streams) == 0)
	for _, s := range r.Streams {
		r.Healthy = r.Healthy && s.Status == StreamOK
	}
	return r, nil
}

func marksState(mr marksRead) string {
	switch {
	case !mr.found:
		return "missing"
	case mr.tornBytes > 0:
		return fmt.Sprintf("torn tail of %d bytes", mr.tornBytes)
	}
	return "ok"
}

// inspectStreams lists the streams with an 'h' key or marks, sorted.
func inspectStreams(txn *badger.Txn, mr marksRead) []string {
	seen := map[string]bool{}
	for s := range mr.marks {
		seen[s] = true
	}
	it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{kindHighest}})
	for it.Rewind(); it.Valid(); it.Next() {
		seen[string(it.Item().Key()[1:])] = true
	}
	it.Close()
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func inspectStream(txn *badger.Txn, stream string, mark streamMark) StreamReport {
	b, _ := readBounds(txn, stream)
	low := max(b.low, mark.low)
	sr := StreamReport{Stream: stream, Highest: b.highest, MarkHighest: mark.highest, RetainedFrom: low + 1}
	high := max(b.highest, mark.highest)
	present := map[uint64]bool{}
	eachKey(txn, streamPrefix(kindDropped, stream), func(seq uint64, _ []byte) {
		sr.Dropped++
		present[seq] = true
	})
	eachKey(txn, streamPrefix(kindEvent, stream), func(seq uint64, v []byte) {
		sr.Events++
		present[seq] = true
		if _, err := DecodeRecord(v, seq); errors.Is(err, ErrCorrupt) {
			sr.Corrupt = append(sr.Corrupt, seq)
		}
	})
	eachKey(txn, streamPrefix(kindSnapshot, stream), func(seq uint64, v []byte) {
		sr.Snapshots++
		if _, err := decodeSnapshot(stream, seq, v); errors.Is(err, ErrCorrupt) {
			sr.CorruptSnapshots = append(sr.CorruptSnapshots, seq)
		} else if err == nil {
			sr.SnapshotSeq = max(sr.SnapshotSeq, seq)
		}
	})
	sr.Gaps = gapsIn(stream, present, low+1, high)
	if item, err := txn.Get(quarantineKey(stream)); err == nil {
		q := Quarantine{Stream: stream, Reason: "quarantine record unreadable"}
		_ = item.Value(func(v []byte) error { return json.Unmarshal(v, &q) })
		sr.Quarantine = &q
	}
	// A start looks the ends up by key (missingEnds), which can find a
	// record an iteration misses past a damaged block.
	endsLost := len(sr.Gaps) > 0 && high > low && len(missingEnds(txn, stream, streamMark{highest: high, low: low})) > 0
	sr.Status, sr.Repair = streamVerdict(sr, high, endsLost)
	return sr
}

// eachKey calls f with the seq and value of every key under prefix.
func eachKey(txn *badger.Txn, prefix []byte, f func(seq uint64, v []byte)) {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix, PrefetchValues: false})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		seq := seqOf(it.Item().Key())
		_ = it.Item().Value(func(v []byte) error { f(seq, v); return nil })
	}
}

// gapsIn returns the runs of from..to not in present.
func gapsIn(stream string, present map[uint64]bool, from, to uint64) []LostRange {
	var gaps []LostRange
	for seq := from; seq <= to && seq > 0; seq++ {
		if present[seq] {
			continue
		}
		if n := len(gaps); n > 0 && gaps[n-1].To == seq-1 {
			gaps[n-1].To = seq
		} else {
			gaps = append(gaps, LostRange{Stream: stream, From: seq, To: seq})
		}
	}
	return gaps
}

// streamVerdict decides a stream's status and what can be done about it.
// endsLost says whether a start finds seqs missing at the stream's ends.
func streamVerdict(sr StreamReport, high uint64, endsLost bool) (string, string) {
	const restore = "not repairable in place: restore the data directory from a backup to get its history back; " +
		"until then the runtime does not resume this agent and serves the others"
	tailOnly := len(sr.Gaps) == 0 && len(sr.Corrupt) > 0 && len(sr.Corrupt) <= maxTailDrop &&
		sr.Corrupt[0] == high-uint64(len(sr.Corrupt))+1
	switch {
	case sr.Quarantine != nil:
		return StreamQuarantined, restore
	case tailOnly:
		return StreamTailTorn, "repaired at the next start: the corrupt tail records are moved aside and reported, " +
			"the agent resumes from the record before them"
	case (len(sr.Gaps) > 0 || len(sr.Corrupt) > 0) && !foundAtStart(sr, endsLost):
		return StreamDamaged, fmt.Sprintf("only in history its snapshot at seq %d covers: the next start does not see it "+
			"and resumes the agent from that snapshot; it is found by the runtime's background scrub after the next start "+
			"(or by an earlier read of that history: tail, transcript, an event stream from before seq %d), which "+
			"quarantines it (not repairable in place: restore the data directory from a backup "+
			"to get its history back)", sr.SnapshotSeq, sr.SnapshotSeq+1)
	case len(sr.Gaps) > 0 || len(sr.Corrupt) > 0:
		return StreamDamaged, "quarantined at the next start (" + restore + ")"
	case len(sr.CorruptSnapshots) > 0:
		return StreamOK, "corrupt snapshots are skipped: the agent replays more of its journal"
	}
	return StreamOK, ""
}

// foundAtStart reports whether a start finds the damage of sr: a start
// looks up the first and last seq a stream must hold (endsLost, see
// badger_integrity.go) and its tail records (badger_recovery.go), and an
// agent's recovery reads the events after its newest snapshot. Damage only
// in the history that snapshot covers is found by the runtime's background
// scrub after the start (or an earlier read of it), not by the start.
func foundAtStart(sr StreamReport, endsLost bool) bool {
	if endsLost {
		return true
	}
	for _, g := range sr.Gaps {
		if g.To > sr.SnapshotSeq {
			return true
		}
	}
	return len(sr.Corrupt) > 0 && sr.Corrupt[len(sr.Corrupt)-1] > sr.SnapshotSeq
}
