// Package storetest is the conformance suite every persistence.Store
// implementation runs: a port of Akka Persistence's JournalSpec and
// SnapshotStoreSpec, plus the rules our own API adds. Badger, the memory
// store and the PostgreSQL journal all call Run with a Factory, so they
// pass the same cases.
//
// storetest imports persistence and messages; only tests import it.
package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// failAfter bounds every wait on a channel. It only turns a hang into a
// failure; nothing waits for it to pass.
const failAfter = 10 * time.Second

// maxSeq is the "no upper bound" value for Read.
const maxSeq = math.MaxUint64

// Factory opens stores for the suite.
type Factory struct {
	Name string
	// Open returns a new, empty store; the test's cleanup closes it.
	Open func(t *testing.T) persistence.Store
	// Reopen closes s and opens its data again. It is nil for stores that
	// keep nothing across Close.
	Reopen func(t *testing.T, s persistence.Store) persistence.Store
}

// conformanceCase is one named case of the suite.
type conformanceCase struct {
	name string
	// needsReopen marks cases about durability across Close and Open.
	needsReopen bool
	run         func(t *testing.T, f Factory)
}

func Run(t *testing.T, f Factory) {
	cases := slices.Concat(journalReadCases(), readPageCases(), journalCases(), appendCases(), snapshotCases())
	names := make(map[string]bool, len(cases))
	var passed, ran, skipped int
	for _, c := range cases {
		if names[c.name] {
			t.Fatalf("duplicate case name %q", c.name)
		}
		names[c.name] = true
		if c.needsReopen && f.Reopen == nil {
			skipped++
			t.Run(c.name, func(t *testing.T) { t.Skipf("%s keeps nothing across Close", f.Name) })
			continue
		}
		started := false // false when -run filtered the case out
		ok := t.Run(c.name, func(t *testing.T) {
			started = true
			c.run(t, f)
		})
		if started {
			ran++
			if ok {
				passed++
			}
		}
	}
	msg := fmt.Sprintf("conformance(%s): %d/%d cases passed", f.Name, passed, ran)
	if skipped > 0 {
		msg += fmt.Sprintf(" (%d skipped: need reopen)", skipped)
	}
	t.Log(msg)
}

// ---- test events ----------------------------------------------------------

var testEventIDs atomic.Uint64

// testEvent returns a valid event for stream whose payload is {"n":n}; the
// suite uses n for the sequence number the event should get.
func testEvent(stream string, n int) messages.Event {
	return messages.Event{
		ID:      "ev-" + strconv.FormatUint(testEventIDs.Add(1), 10),
		AgentID: stream,
		Type:    messages.EventMessageAdmitted,
		Version: 1,
		At:      time.Date(2025, 3, 4, 5, 6, 7, n, time.UTC),
		Payload: json.RawMessage(`{"n":` + strconv.Itoa(n) + `}`),
	}
}

// testEvents returns events n = from..to.
func testEvents(stream string, from, to int) []messages.Event {
	var evs []messages.Event
	for n := from; n <= to; n++ {
		evs = append(evs, testEvent(stream, n))
	}
	return evs
}

func seqsOf(evs []messages.Event) []uint64 {
	out := make([]uint64, 0, len(evs))
	for _, ev := range evs {
		out = append(out, ev.Seq)
	}
	return out
}

func seqRange(from, to uint64) []uint64 {
	out := []uint64{}
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

// sameEvent reports whether got is want as stored at seq.
func sameEvent(got, want messages.Event, seq uint64) bool {
	return got.Seq == seq && got.ID == want.ID && got.AgentID == want.AgentID &&
		got.Type == want.Type && got.Version == want.Version && got.At.Equal(want.At) &&
		bytes.Equal(got.Payload, want.Payload)
}

// ---- helpers that fail the test -------------------------------------------

func mustAppend(t *testing.T, s persistence.Journal, stream string, evs []messages.Event) uint64 {
	t.Helper()
	first, err := s.Append(context.Background(), stream, evs)
	if err != nil {
		t.Fatalf("Append(%q, %d events) = %v", stream, len(evs), err)
	}
	return first
}

func mustRead(t *testing.T, s persistence.Journal, stream string, from, to uint64, limit int) []messages.Event {
	t.Helper()
	evs, err := s.Read(context.Background(), stream, from, to, limit)
	if err != nil {
		t.Fatalf("Read(%q, %s, %d) = %v", stream, rangeString(from, to), limit, err)
	}
	return evs
}

func mustHighest(t *testing.T, s persistence.Journal, stream string) uint64 {
	t.Helper()
	h, err := s.HighestSeq(context.Background(), stream)
	if err != nil {
		t.Fatalf("HighestSeq(%q) = %v", stream, err)
	}
	return h
}

func mustDelete(t *testing.T, s persistence.Journal, stream string, upTo uint64) {
	t.Helper()
	if err := s.DeleteUpTo(context.Background(), stream, upTo); err != nil {
		t.Fatalf("DeleteUpTo(%q, %d) = %v", stream, upTo, err)
	}
}

func rangeString(from, to uint64) string {
	if to == maxSeq {
		return fmt.Sprintf("%d,max", from)
	}
	return fmt.Sprintf("%d,%d", from, to)
}

// wantSeqs reads stream and checks the sequence numbers it gets, and that
// every event's payload n equals its seq (the suite's events say where
// they belong).
func wantSeqs(t *testing.T, s persistence.Journal, stream string, from, to uint64, limit int, want []uint64) {
	t.Helper()
	evs := mustRead(t, s, stream, from, to, limit)
	if got := seqsOf(evs); !slices.Equal(got, want) {
		t.Fatalf("Read(%q, %s, limit %d) = %v, want %v", stream, rangeString(from, to), limit, got, want)
	}
	for _, ev := range evs {
		if want := fmt.Sprintf(`{"n":%d}`, ev.Seq); string(ev.Payload) != want {
			t.Fatalf("Read(%q) seq %d has payload %s, want %s", stream, ev.Seq, ev.Payload, want)
		}
	}
}

func wantHighest(t *testing.T, s persistence.Journal, stream string, want uint64) {
	t.Helper()
	if got := mustHighest(t, s, stream); got != want {
		t.Fatalf("HighestSeq(%q) = %d, want %d", stream, got, want)
	}
}

func wantAppendFirst(t *testing.T, s persistence.Journal, stream string, evs []messages.Event, want uint64) {
	t.Helper()
	if got := mustAppend(t, s, stream, evs); got != want {
		t.Fatalf("Append(%q, %d events) = first %d, want %d", stream, len(evs), got, want)
	}
}

// specStream is the stream the JournalSpec setup writes.
const specStream = "agent-spec"

// writeSpecEvents is the JournalSpec setup: events 1-5 where 4 and 5 are a
// single atomic Append. It returns the events as appended.
func writeSpecEvents(t *testing.T, s persistence.Journal) []messages.Event {
	t.Helper()
	evs := testEvents(specStream, 1, 5)
	for i, batch := range [][]messages.Event{evs[0:1], evs[1:2], evs[2:3], evs[3:5]} {
		wantAppendFirst(t, s, specStream, batch, uint64(i+1))
	}
	return evs
}

// ---- JournalSpec: replay ranges --------------------------------------------

func journalReadCases() []conformanceCase {
	tests := []struct {
		name     string
		from, to uint64
		limit    int
		want     []uint64
	}{
		{"replay all", 1, maxSeq, 0, seqRange(1, 5)},
		{"replay with a lower bound", 3, maxSeq, 0, seqRange(3, 5)},
		{"replay with an upper bound", 1, 3, 0, seqRange(1, 3)},
		{"replay with a count limit", 1, maxSeq, 3, seqRange(1, 3)},
		{"replay with lower and upper bounds", 2, 3, 0, seqRange(2, 3)},
		{"replay with lower and upper bounds and a count limit", 2, 5, 2, seqRange(2, 3)},
		{"replay a single event when lower equals upper", 2, 2, 0, seqRange(2, 2)},
		{"replay a single event when count is 1", 2, 4, 1, seqRange(2, 2)},
		// JournalSpec's "nothing when count is 0" does not port as is: our
		// Read documents limit <= 0 as "no limit", so count 0 (and any
		// negative count) replays the whole range.
		{"count 0 means no limit", 2, 4, 0, seqRange(2, 4)},
		{"negative count means no limit", 2, 4, -1, seqRange(2, 4)},
		{"replay nothing when lower is greater than upper", 3, 2, 0, nil},
		{"replay from 0 starts at the first event", 0, maxSeq, 0, seqRange(1, 5)},
		{"replay nothing after the highest seq", 6, maxSeq, 0, nil},
		{"count limit larger than the range", 4, 5, 10, seqRange(4, 5)},
	}
	var cases []conformanceCase
	for _, tt := range tests {
		cases = append(cases, conformanceCase{name: tt.name, run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			written := writeSpecEvents(t, s)
			evs := mustRead(t, s, specStream, tt.from, tt.to, tt.limit)
			if got := seqsOf(evs); !slices.Equal(got, tt.want) {
				t.Fatalf("Read(%s, limit %d) = %v, want %v", rangeString(tt.from, tt.to), tt.limit, got, tt.want)
			}
			for _, ev := range evs {
				if w := written[ev.Seq-1]; !sameEvent(ev, w, ev.Seq) {
					t.Errorf("Read(%s) seq %d = %+v, want %+v", rangeString(tt.from, tt.to), ev.Seq, ev, w)
				}
			}
		}})
	}
	return cases
}

// readPageCases: ReadPage bounds a page by the events' stored size as well
// as by count, and always returns the range's first event.
func readPageCases() []conformanceCase {
	// Events 1..5 of 10 KB each; a record is the payload plus under 100
	// bytes of header and fields.
	const payload = 10_000
	tests := []struct {
		name            string
		from            uint64
		limit, maxBytes int
		want            []uint64
	}{
		{"page bound 0 means no size bound", 1, 0, 0, seqRange(1, 5)},
		{"page stops before the event past the bound", 1, 0, 2*payload + 500, seqRange(1, 2)},
		{"page holds the first event even when it is past the bound", 2, 0, 10, seqRange(2, 2)},
		{"page count limit comes first", 1, 1, 10 * payload, seqRange(1, 1)},
		{"page bound from a later cursor", 3, 0, 2*payload + 500, seqRange(3, 4)},
	}
	var cases []conformanceCase
	for _, tt := range tests {
		cases = append(cases, conformanceCase{name: tt.name, run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			evs := testEvents(specStream, 1, 5)
			for i := range evs {
				evs[i].Payload = json.RawMessage(`{"n":"` + strings.Repeat("x", payload-8) + `"}`)
			}
			wantAppendFirst(t, s, specStream, evs, 1)
			got, err := s.ReadPage(context.Background(), specStream, tt.from, maxSeq, tt.limit, tt.maxBytes)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(seqsOf(got), tt.want) {
				t.Fatalf("ReadPage(from %d, limit %d, %d bytes) = %v, want %v", tt.from, tt.limit, tt.maxBytes, seqsOf(got), tt.want)
			}
			for _, ev := range got {
				if !sameEvent(ev, evs[ev.Seq-1], ev.Seq) {
					t.Errorf("ReadPage seq %d differs from what was written", ev.Seq)
				}
			}
		}})
	}
	return cases
}

// ---- JournalSpec: HighestSeq, deletion, atomic writes ---------------------

func journalCases() []conformanceCase {
	ctx := context.Background()
	return []conformanceCase{
		{name: "replay nothing for a never-written stream, HighestSeq 0", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			writeSpecEvents(t, s)
			wantSeqs(t, s, "never-written", 1, 2, 0, nil)
			wantSeqs(t, s, "never-written", 0, maxSeq, 0, nil)
			wantHighest(t, s, "never-written", 0)
		}},
		{name: "no replay of deleted events", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			writeSpecEvents(t, s)
			mustDelete(t, s, specStream, 3)
			wantSeqs(t, s, specStream, 1, maxSeq, 0, seqRange(4, 5))
			wantSeqs(t, s, specStream, 1, 3, 0, nil)
			wantSeqs(t, s, specStream, 2, 4, 0, seqRange(4, 4))
			wantSeqs(t, s, specStream, 1, maxSeq, 1, seqRange(4, 4))
		}},
		{name: "deleting events does not reset HighestSeq", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			writeSpecEvents(t, s)
			mustDelete(t, s, specStream, 3)
			wantHighest(t, s, specStream, 5)
			wantAppendFirst(t, s, specStream, testEvents(specStream, 6, 6), 6)
			wantSeqs(t, s, specStream, 1, maxSeq, 0, seqRange(4, 6))
		}},
		{name: "deleting again below the deleted prefix changes nothing", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			writeSpecEvents(t, s)
			mustDelete(t, s, specStream, 3)
			mustDelete(t, s, specStream, 2)
			mustDelete(t, s, specStream, 0)
			wantSeqs(t, s, specStream, 1, maxSeq, 0, seqRange(4, 5))
			wantHighest(t, s, specStream, 5)
		}},
		{name: "full cleanup does not reset HighestSeq", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			writeSpecEvents(t, s)
			mustDelete(t, s, specStream, 5)
			wantSeqs(t, s, specStream, 1, maxSeq, 0, nil)
			wantHighest(t, s, specStream, 5)
			wantAppendFirst(t, s, specStream, testEvents(specStream, 6, 6), 6)
			wantSeqs(t, s, specStream, 1, maxSeq, 0, seqRange(6, 6))
			mustDelete(t, s, specStream, maxSeq)
			wantSeqs(t, s, specStream, 0, maxSeq, 0, nil)
			wantHighest(t, s, specStream, 6)
			wantAppendFirst(t, s, specStream, testEvents(specStream, 7, 8), 7)
			wantSeqs(t, s, specStream, 1, maxSeq, 0, seqRange(7, 8))
		}},
		{name: "deleting a never-written stream is a no-op", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			mustDelete(t, s, "never-written", 10)
			wantHighest(t, s, "never-written", 0)
			wantAppendFirst(t, s, "never-written", testEvents("never-written", 1, 1), 1)
		}},
		{name: "atomic write of several events", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			writeSpecEvents(t, s)
			batch := testEvents(specStream, 6, 8)
			wantAppendFirst(t, s, specStream, batch, 6)
			wantHighest(t, s, specStream, 8)
			evs := mustRead(t, s, specStream, 6, maxSeq, 0)
			if len(evs) != len(batch) {
				t.Fatalf("Read(6,max) = %v, want [6 7 8]", seqsOf(evs))
			}
			for i, ev := range evs {
				if !sameEvent(ev, batch[i], uint64(6+i)) {
					t.Errorf("Read(6,max)[%d] = %+v, want %+v at seq %d", i, ev, batch[i], 6+i)
				}
			}
		}},
		{name: "an invalid event rejects its whole batch", run: func(t *testing.T, f Factory) {
			// JournalSpec's optional "reject non-serializable events
			// individually" (6 ok, 7 rejected, 8 ok), adapted: our batches
			// are atomic, so one bad event rejects the batch and writes
			// nothing; the next valid Append still gets seq 6.
			breakers := []struct {
				name  string
				spoil func(*messages.Event)
			}{
				{"payload not JSON", func(e *messages.Event) { e.Payload = json.RawMessage(`{"n":`) }},
				{"empty payload", func(e *messages.Event) { e.Payload = nil }},
				{"empty id", func(e *messages.Event) { e.ID = "" }},
				{"zero time", func(e *messages.Event) { e.At = time.Time{} }},
				{"unknown type", func(e *messages.Event) { e.Type = "no_such_event" }},
				{"version 0", func(e *messages.Event) { e.Version = 0 }},
				{"version from the future", func(e *messages.Event) { e.Version = 99 }},
				{"agent_id of another stream", func(e *messages.Event) { e.AgentID = "someone-else" }},
			}
			s := f.Open(t)
			writeSpecEvents(t, s)
			for _, b := range breakers {
				batch := testEvents(specStream, 6, 8)
				b.spoil(&batch[1])
				if first, err := s.Append(ctx, specStream, batch); err == nil {
					t.Errorf("%s: Append([6 bad 8]) = first %d, nil error; want an error", b.name, first)
				}
				wantHighest(t, s, specStream, 5)
				wantSeqs(t, s, specStream, 6, maxSeq, 0, nil)
			}
			wantAppendFirst(t, s, specStream, testEvents(specStream, 6, 6), 6)
			wantSeqs(t, s, specStream, 1, maxSeq, 0, seqRange(1, 6))
		}},
		{name: "invalid events wrap messages.ErrInvalidEvent", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			ev := testEvent("a", 1)
			ev.Type = "no_such_event"
			if _, err := s.Append(ctx, "a", []messages.Event{ev}); !errors.Is(err, messages.ErrInvalidEvent) {
				t.Fatalf("Append(unknown type) = %v, want an error wrapping messages.ErrInvalidEvent", err)
			}
		}},
	}
}

// ---- our own rules: fences, validation, streams, subscriptions ------------

func appendCases() []conformanceCase {
	ctx := context.Background()
	return []conformanceCase{
		{name: "AppendAfter at HighestSeq appends", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			if first, err := s.AppendAfter(ctx, "fresh", 0, testEvents("fresh", 1, 2)); err != nil || first != 1 {
				t.Fatalf("AppendAfter(fresh, 0) = %d, %v; want 1, nil", first, err)
			}
			writeSpecEvents(t, s)
			if first, err := s.AppendAfter(ctx, specStream, 5, testEvents(specStream, 6, 7)); err != nil || first != 6 {
				t.Fatalf("AppendAfter(5) = %d, %v; want 6, nil", first, err)
			}
			wantSeqs(t, s, specStream, 1, maxSeq, 0, seqRange(1, 7))
		}},
		{name: "AppendAfter off HighestSeq returns ErrSeqConflict and writes nothing", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			writeSpecEvents(t, s)
			mustDelete(t, s, specStream, 5) // the fence is HighestSeq, not the last present event
			for _, after := range []uint64{0, 3, 4, 6, 100} {
				first, err := s.AppendAfter(ctx, specStream, after, testEvents(specStream, 6, 6))
				if !errors.Is(err, persistence.ErrSeqConflict) {
					t.Errorf("AppendAfter(%d) at HighestSeq 5 = %d, %v; want ErrSeqConflict", after, first, err)
				}
			}
			if _, err := s.AppendAfter(ctx, "fresh", 1, testEvents("fresh", 1, 1)); !errors.Is(err, persistence.ErrSeqConflict) {
				t.Errorf("AppendAfter(fresh, 1) = %v, want ErrSeqConflict", err)
			}
			wantHighest(t, s, specStream, 5)
			wantHighest(t, s, "fresh", 0)
			wantSeqs(t, s, specStream, 1, maxSeq, 0, nil)
			if first, err := s.AppendAfter(ctx, specStream, 5, testEvents(specStream, 6, 6)); err != nil || first != 6 {
				t.Fatalf("AppendAfter(5) = %d, %v; want 6, nil", first, err)
			}
		}},
		{name: "empty batch returns ErrEmptyBatch", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			for _, evs := range [][]messages.Event{nil, {}} {
				if _, err := s.Append(ctx, "a", evs); !errors.Is(err, persistence.ErrEmptyBatch) {
					t.Errorf("Append(a, %#v) = %v, want ErrEmptyBatch", evs, err)
				}
				if _, err := s.AppendAfter(ctx, "a", 0, evs); !errors.Is(err, persistence.ErrEmptyBatch) {
					t.Errorf("AppendAfter(a, 0, %#v) = %v, want ErrEmptyBatch", evs, err)
				}
			}
			wantHighest(t, s, "a", 0)
			wantStreams(t, s, nil)
		}},
		{name: "invalid stream names return ErrInvalidStream", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			bad := []string{"", strings.Repeat("x", 201), "a\x00b", "line\nbreak", "tab\t", "del\x7f", "\x1f"}
			for _, name := range bad {
				ops := map[string]error{}
				_, ops["Append"] = s.Append(ctx, name, []messages.Event{testEvent(name, 1)})
				_, ops["AppendAfter"] = s.AppendAfter(ctx, name, 0, []messages.Event{testEvent(name, 1)})
				_, ops["Read"] = s.Read(ctx, name, 1, maxSeq, 0)
				_, ops["HighestSeq"] = s.HighestSeq(ctx, name)
				ops["DeleteUpTo"] = s.DeleteUpTo(ctx, name, 1)
				ops["SaveSnapshot"] = s.SaveSnapshot(ctx, persistence.Snapshot{Stream: name, Seq: 1, Timestamp: snapTime(1), Data: []byte("x")})
				_, _, ops["LoadSnapshot"] = s.LoadSnapshot(ctx, name, persistence.LatestSnapshot())
				ops["DeleteSnapshot"] = s.DeleteSnapshot(ctx, name, 1)
				ops["DeleteSnapshots"] = s.DeleteSnapshots(ctx, name, persistence.LatestSnapshot())
				for op, err := range ops {
					if !errors.Is(err, persistence.ErrInvalidStream) {
						t.Errorf("%s(%q) = %v, want ErrInvalidStream", op, name, err)
					}
				}
			}
			wantStreams(t, s, nil)
			// The longest valid name and non-ASCII names work.
			for _, name := range []string{strings.Repeat("x", 200), "agent/é/ü", "a b"} {
				wantAppendFirst(t, s, name, testEvents(name, 1, 1), 1)
				wantSeqs(t, s, name, 1, maxSeq, 0, seqRange(1, 1))
			}
		}},
		{name: "stream names that are not valid UTF-8 are rejected or round-trip", run: func(t *testing.T, f Factory) {
			// An event's agent_id must equal its stream. Anything that puts
			// events through JSON turns invalid UTF-8 into U+FFFD, so such a
			// stream must be refused, or at least read back unchanged.
			s := f.Open(t)
			for _, name := range []string{"\xff", "a\xffb", "\xc3"} {
				_, err := s.Append(ctx, name, []messages.Event{testEvent(name, 1)})
				if errors.Is(err, persistence.ErrInvalidStream) {
					continue
				}
				if err != nil {
					t.Fatalf("Append(%q) = %v, want nil or ErrInvalidStream", name, err)
				}
				evs := mustRead(t, s, name, 1, maxSeq, 0)
				if len(evs) != 1 || evs[0].AgentID != name {
					t.Errorf("Read(%q) = %+v, want one event with agent_id %q", name, evs, name)
				}
			}
		}},
		{name: "agent_id different from the stream is rejected", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			ev := testEvent("b", 1) // belongs to stream b
			if first, err := s.Append(ctx, "a", []messages.Event{ev}); err == nil {
				t.Fatalf("Append(a, event of b) = first %d, nil error; want an error", first)
			}
			wantHighest(t, s, "a", 0)
			wantHighest(t, s, "b", 0)
			wantStreams(t, s, nil)
		}},
		{name: "streams whose names share a prefix stay separate", run: func(t *testing.T, f Factory) {
			// Keys are kind+stream+NUL+seq; names that are prefixes of each
			// other, or end in low and high bytes, must not see each other.
			names := []string{"a", "ab", "a ", "a/", "a/b", "a~", "a!", "aé", "b", "é"}
			s := f.Open(t)
			for i, name := range names {
				wantAppendFirst(t, s, name, testEvents(name, 1, i+1), 1)
				if err := s.SaveSnapshot(ctx, persistence.Snapshot{Stream: name, Seq: uint64(i + 1), Timestamp: snapTime(i), Data: []byte(name)}); err != nil {
					t.Fatalf("SaveSnapshot(%q) = %v", name, err)
				}
			}
			mustDelete(t, s, "a", maxSeq)
			if err := s.DeleteSnapshots(ctx, "a", persistence.LatestSnapshot()); err != nil {
				t.Fatalf("DeleteSnapshots(a) = %v", err)
			}
			for i, name := range names {
				want, wantSnap := seqRange(1, uint64(i+1)), true
				if name == "a" {
					want, wantSnap = nil, false
				}
				wantHighest(t, s, name, uint64(i+1))
				wantSeqs(t, s, name, 0, maxSeq, 0, want)
				for _, ev := range mustRead(t, s, name, 0, maxSeq, 0) {
					if ev.AgentID != name {
						t.Errorf("Read(%q) returned an event of %q", name, ev.AgentID)
					}
				}
				snap, ok, err := s.LoadSnapshot(ctx, name, persistence.LatestSnapshot())
				if err != nil || ok != wantSnap || ok && (snap.Seq != uint64(i+1) || string(snap.Data) != name) {
					t.Errorf("LoadSnapshot(%q) = {seq %d, data %q}, %v, %v; want seq %d data %q, %v, nil",
						name, snap.Seq, snap.Data, ok, err, i+1, name, wantSnap)
				}
			}
			want := slices.Clone(names)
			slices.Sort(want)
			wantStreams(t, s, want)
		}},
		{name: "Streams lists every appended stream, sorted", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			wantStreams(t, s, nil)
			for _, name := range []string{"c", "a", "b", "B", "a b", "c"} {
				mustAppend(t, s, name, testEvents(name, 1, 1))
			}
			// Failed appends create no stream.
			_, _ = s.Append(ctx, "empty", nil)
			_, _ = s.AppendAfter(ctx, "fenced", 7, testEvents("fenced", 1, 1))
			// Deleting every event keeps the stream listed: it was appended to.
			mustDelete(t, s, "b", maxSeq)
			wantStreams(t, s, []string{"B", "a", "a b", "b", "c"})
		}},
		{name: "Subscribe is signalled after Append", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			sub := s.Subscribe("a")
			defer sub.Close()
			other := s.Subscribe("b")
			defer other.Close()
			for i := 1; i <= 3; i++ {
				mustAppend(t, s, "a", testEvents("a", i, i))
				select {
				case <-sub.C:
				case <-time.After(failAfter):
					t.Fatalf("no signal on a's subscription within %v of Append %d", failAfter, i)
				}
				// A signal means the events are durable and readable.
				wantSeqs(t, s, "a", 1, maxSeq, 0, seqRange(1, uint64(i)))
			}
			select {
			case <-other.C:
				t.Fatal("b's subscription was signalled by appends to a")
			default:
			}
			// Several appends coalesce into at least one pending signal.
			mustAppend(t, s, "a", testEvents("a", 4, 4))
			mustAppend(t, s, "a", testEvents("a", 5, 5))
			select {
			case <-sub.C:
			case <-time.After(failAfter):
				t.Fatalf("no signal on a's subscription within %v of Appends 4 and 5", failAfter)
			}
			sub.Close()
			sub.Close() // safe twice
			mustAppend(t, s, "a", testEvents("a", 6, 6))
		}},
		{name: "concurrent appenders get contiguous seqs per stream", run: runConcurrentAppenders},
		{name: "an oversized batch is written whole or refused with ErrBatchTooLarge", run: runOversizedBatch},
		{name: "reopen keeps events, HighestSeq, deletions and snapshots", needsReopen: true, run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			written := writeSpecEvents(t, s)
			mustAppend(t, s, "cleaned", testEvents("cleaned", 1, 3))
			mustDelete(t, s, "cleaned", 3)
			mustAppend(t, s, "trimmed", testEvents("trimmed", 1, 4))
			mustDelete(t, s, "trimmed", 2)
			snap := persistence.Snapshot{Stream: specStream, Seq: 4, Timestamp: snapTime(4), Data: []byte("state@4")}
			if err := s.SaveSnapshot(ctx, snap); err != nil {
				t.Fatalf("SaveSnapshot = %v", err)
			}
			s = f.Reopen(t, s)
			evs := mustRead(t, s, specStream, 1, maxSeq, 0)
			if got := seqsOf(evs); !slices.Equal(got, seqRange(1, 5)) {
				t.Fatalf("after reopen Read(1,max) = %v, want [1 2 3 4 5]", got)
			}
			for i, ev := range evs {
				if !sameEvent(ev, written[i], uint64(i+1)) {
					t.Errorf("after reopen seq %d = %+v, want %+v", i+1, ev, written[i])
				}
			}
			wantHighest(t, s, specStream, 5)
			wantHighest(t, s, "cleaned", 3)
			wantSeqs(t, s, "cleaned", 1, maxSeq, 0, nil)
			wantSeqs(t, s, "trimmed", 1, maxSeq, 0, seqRange(3, 4))
			wantStreams(t, s, []string{specStream, "cleaned", "trimmed"})
			wantSnapshot(t, s, specStream, persistence.LatestSnapshot(), snap)
			wantAppendFirst(t, s, specStream, testEvents(specStream, 6, 6), 6)
			wantAppendFirst(t, s, "cleaned", testEvents("cleaned", 4, 4), 4)
			s = f.Reopen(t, s)
			wantSeqs(t, s, specStream, 1, maxSeq, 0, seqRange(1, 6))
			wantSeqs(t, s, "cleaned", 1, maxSeq, 0, seqRange(4, 4))
			if h := s.Health(); len(h.DroppedTails) != 0 || len(h.Quarantined) != 0 || h.Failed != "" {
				t.Errorf("Health() after clean reopens = %+v, want no damage", h)
			}
		}},
		{name: "operations after Close return ErrClosed", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			writeSpecEvents(t, s)
			if err := s.Close(); err != nil {
				t.Fatalf("Close() = %v", err)
			}
			ops := map[string]error{}
			_, ops["Append"] = s.Append(ctx, specStream, testEvents(specStream, 6, 6))
			_, ops["AppendAfter"] = s.AppendAfter(ctx, specStream, 5, testEvents(specStream, 6, 6))
			_, ops["Read"] = s.Read(ctx, specStream, 1, maxSeq, 0)
			_, ops["HighestSeq"] = s.HighestSeq(ctx, specStream)
			ops["DeleteUpTo"] = s.DeleteUpTo(ctx, specStream, 1)
			_, ops["Streams"] = s.Streams(ctx)
			ops["SaveSnapshot"] = s.SaveSnapshot(ctx, persistence.Snapshot{Stream: specStream, Seq: 1, Timestamp: snapTime(1)})
			_, _, ops["LoadSnapshot"] = s.LoadSnapshot(ctx, specStream, persistence.LatestSnapshot())
			ops["DeleteSnapshot"] = s.DeleteSnapshot(ctx, specStream, 1)
			ops["DeleteSnapshots"] = s.DeleteSnapshots(ctx, specStream, persistence.LatestSnapshot())
			for op, err := range ops {
				if !errors.Is(err, persistence.ErrClosed) {
					t.Errorf("%s after Close = %v, want ErrClosed", op, err)
				}
			}
			if err := s.Close(); err != nil && !errors.Is(err, persistence.ErrClosed) {
				t.Errorf("second Close() = %v, want nil or ErrClosed", err)
			}
		}},
	}
}

func wantStreams(t *testing.T, s persistence.Journal, want []string) {
	t.Helper()
	got, err := s.Streams(context.Background())
	if err != nil {
		t.Fatalf("Streams() = %v", err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Streams() = %q, want %q", got, want)
	}
}

// runConcurrentAppenders has many goroutines append batches of 1-3 events
// to a few shared streams. Each stream must end up as 1..N with every batch
// contiguous at the seqs its Append returned, and no event twice.
func runConcurrentAppenders(t *testing.T, f Factory) {
	const streams, writersPerStream, appendsPerWriter = 8, 4, 25
	s := f.Open(t)
	type ack struct {
		first uint64
		batch []messages.Event
	}
	var (
		mu   sync.Mutex
		acks = map[string][]ack{}
		wg   sync.WaitGroup
	)
	for w := range streams * writersPerStream {
		stream := fmt.Sprintf("conc-%d", w%streams)
		rng := rand.New(rand.NewPCG(uint64(w), 7))
		wg.Go(func() {
			for range appendsPerWriter {
				batch := testEvents(stream, 0, rng.IntN(3))
				first, err := s.Append(context.Background(), stream, batch)
				if err != nil {
					t.Errorf("Append(%s) = %v", stream, err)
					return
				}
				mu.Lock()
				acks[stream] = append(acks[stream], ack{first, batch})
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for i := range streams {
		stream := fmt.Sprintf("conc-%d", i)
		evs := mustRead(t, s, stream, 1, maxSeq, 0)
		n := uint64(len(evs))
		if got := seqsOf(evs); !slices.Equal(got, seqRange(1, n)) {
			t.Fatalf("Read(%s) seqs = %v, want 1..%d", stream, got, n)
		}
		wantHighest(t, s, stream, n)
		var total uint64
		for _, a := range acks[stream] {
			total += uint64(len(a.batch))
			for j, want := range a.batch {
				seq := a.first + uint64(j)
				if seq < 1 || seq > n || !sameEvent(evs[seq-1], want, seq) {
					t.Fatalf("%s: batch acked at first %d: event %d (%s) is not at seq %d", stream, a.first, j, want.ID, seq)
				}
			}
		}
		if total != n {
			t.Errorf("%s: %d events acked, %d stored", stream, total, n)
		}
		ids := map[string]bool{}
		for _, ev := range evs {
			if ids[ev.ID] {
				t.Errorf("%s: event %s stored twice", stream, ev.ID)
			}
			ids[ev.ID] = true
		}
	}
}

// ---- SnapshotStoreSpec -----------------------------------------------------

// snapStream is the stream the SnapshotStoreSpec setup writes.
const snapStream = "agent-snap"

// snapTime is the timestamp of the setup's snapshot i; the setup's
// snapshots are a minute apart.
func snapTime(i int) time.Time {
	return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
}

// writeSnapshots is the SnapshotStoreSpec setup: snapshots i = 1..5 at seq
// 10+i with data "s-i", each a minute later than the one before.
func writeSnapshots(t *testing.T, s persistence.SnapshotStore) []persistence.Snapshot {
	t.Helper()
	var out []persistence.Snapshot
	for i := 1; i <= 5; i++ {
		snap := persistence.Snapshot{Stream: snapStream, Seq: uint64(10 + i), Timestamp: snapTime(10 + i), Data: []byte(fmt.Sprintf("s-%d", i))}
		if err := s.SaveSnapshot(context.Background(), snap); err != nil {
			t.Fatalf("SaveSnapshot(seq %d) = %v", snap.Seq, err)
		}
		out = append(out, snap)
	}
	return out
}

func sameSnapshot(got, want persistence.Snapshot) bool {
	return got.Stream == want.Stream && got.Seq == want.Seq && got.Timestamp.Equal(want.Timestamp) && bytes.Equal(got.Data, want.Data)
}

func describeSnapshot(s persistence.Snapshot) string {
	data := string(s.Data)
	if len(data) > 20 {
		data = fmt.Sprintf("%d bytes", len(s.Data))
	}
	return fmt.Sprintf("{%s seq %d at %s: %q}", s.Stream, s.Seq, s.Timestamp.Format(time.RFC3339Nano), data)
}

func wantSnapshot(t *testing.T, s persistence.SnapshotStore, stream string, c persistence.SnapshotCriteria, want persistence.Snapshot) {
	t.Helper()
	got, ok, err := s.LoadSnapshot(context.Background(), stream, c)
	if err != nil || !ok || !sameSnapshot(got, want) {
		t.Fatalf("LoadSnapshot(%q, %+v) = %s, %v, %v; want %s, true, nil", stream, c, describeSnapshot(got), ok, err, describeSnapshot(want))
	}
}

func wantNoSnapshot(t *testing.T, s persistence.SnapshotStore, stream string, c persistence.SnapshotCriteria) {
	t.Helper()
	got, ok, err := s.LoadSnapshot(context.Background(), stream, c)
	if err != nil || ok {
		t.Fatalf("LoadSnapshot(%q, %+v) = %s, %v, %v; want none, false, nil", stream, c, describeSnapshot(got), ok, err)
	}
}

func snapshotCases() []conformanceCase {
	ctx := context.Background()
	return []conformanceCase{
		{name: "snapshot: nothing for an unknown stream", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			writeSnapshots(t, s)
			wantNoSnapshot(t, s, "unknown", persistence.LatestSnapshot())
			wantNoSnapshot(t, s, "unknown", persistence.AtOrBelow(maxSeq))
		}},
		{name: "snapshot: nothing for a non-matching timestamp", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			writeSnapshots(t, s)
			wantNoSnapshot(t, s, snapStream, persistence.SnapshotCriteria{MaxTimestamp: time.Unix(0, 100)})
			wantNoSnapshot(t, s, snapStream, persistence.SnapshotCriteria{MaxTimestamp: snapTime(11).Add(-time.Nanosecond)})
			wantNoSnapshot(t, s, snapStream, persistence.SnapshotCriteria{MinTimestamp: snapTime(15).Add(time.Nanosecond)})
		}},
		{name: "snapshot: nothing for a non-matching seq", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			writeSnapshots(t, s)
			wantNoSnapshot(t, s, snapStream, persistence.AtOrBelow(7))
			wantNoSnapshot(t, s, snapStream, persistence.AtOrBelow(10))
			wantNoSnapshot(t, s, snapStream, persistence.SnapshotCriteria{MinSeq: 16})
		}},
		{name: "snapshot: load the latest", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			snaps := writeSnapshots(t, s)
			wantSnapshot(t, s, snapStream, persistence.LatestSnapshot(), snaps[4])
			wantSnapshot(t, s, snapStream, persistence.AtOrBelow(maxSeq), snaps[4])
		}},
		{name: "snapshot: load the latest at or below a seq", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			snaps := writeSnapshots(t, s)
			wantSnapshot(t, s, snapStream, persistence.AtOrBelow(13), snaps[2])
			wantSnapshot(t, s, snapStream, persistence.AtOrBelow(11), snaps[0])
			wantSnapshot(t, s, snapStream, persistence.AtOrBelow(100), snaps[4])
		}},
		{name: "snapshot: AtOrBelow(0) selects no snapshot", run: func(t *testing.T, f Factory) {
			// persistence.AtOrBelow documents "Seq <= seq"; a recovery at seq 0 (nothing
			// replayed yet) must not be handed a snapshot from later on.
			s := f.Open(t)
			writeSnapshots(t, s)
			wantNoSnapshot(t, s, snapStream, persistence.AtOrBelow(0))
		}},
		{name: "snapshot: load the latest matching seq and timestamp bounds", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			snaps := writeSnapshots(t, s)
			tests := []struct {
				c    persistence.SnapshotCriteria
				want int // index into snaps, -1 for none
			}{
				{persistence.SnapshotCriteria{MaxSeq: 13, MaxTimestamp: snapTime(13)}, 2},
				{persistence.SnapshotCriteria{MaxSeq: 14, MaxTimestamp: snapTime(13)}, 2}, // the timestamp binds
				{persistence.SnapshotCriteria{MaxSeq: 13, MaxTimestamp: snapTime(14)}, 2}, // the seq binds
				{persistence.SnapshotCriteria{MaxSeq: 14, MaxTimestamp: snapTime(14).Add(-time.Nanosecond)}, 2},
				{persistence.SnapshotCriteria{MinSeq: 12, MaxSeq: 14}, 3},
				{persistence.SnapshotCriteria{MinSeq: 15}, 4},
				{persistence.SnapshotCriteria{MinTimestamp: snapTime(12), MaxTimestamp: snapTime(12)}, 1},
				{persistence.SnapshotCriteria{MinSeq: 13, MaxTimestamp: snapTime(12)}, -1},
				{persistence.SnapshotCriteria{MinSeq: 14, MaxSeq: 13}, -1},
			}
			for _, tt := range tests {
				if tt.want < 0 {
					wantNoSnapshot(t, s, snapStream, tt.c)
				} else {
					wantSnapshot(t, s, snapStream, tt.c, snaps[tt.want])
				}
			}
		}},
		{name: "snapshot: delete a single snapshot by seq", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			snaps := writeSnapshots(t, s)
			if err := s.DeleteSnapshot(ctx, snapStream, 13); err != nil {
				t.Fatalf("DeleteSnapshot(13) = %v", err)
			}
			wantSnapshot(t, s, snapStream, persistence.SnapshotCriteria{MaxSeq: 13, MaxTimestamp: snapTime(13)}, snaps[1])
			wantSnapshot(t, s, snapStream, persistence.AtOrBelow(14), snaps[3])
			wantSnapshot(t, s, snapStream, persistence.LatestSnapshot(), snaps[4])
			for _, seq := range []uint64{13, 99} { // deleting what is not there is fine
				if err := s.DeleteSnapshot(ctx, snapStream, seq); err != nil {
					t.Errorf("DeleteSnapshot(%d) of a missing snapshot = %v, want nil", seq, err)
				}
			}
			if err := s.DeleteSnapshot(ctx, "unknown", 1); err != nil {
				t.Errorf("DeleteSnapshot(unknown, 1) = %v, want nil", err)
			}
		}},
		{name: "snapshot: delete all snapshots matching criteria", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			snaps := writeSnapshots(t, s)
			c := persistence.SnapshotCriteria{MaxSeq: 13, MaxTimestamp: snapTime(13)}
			if err := s.DeleteSnapshots(ctx, snapStream, c); err != nil {
				t.Fatalf("DeleteSnapshots(%+v) = %v", c, err)
			}
			wantNoSnapshot(t, s, snapStream, c)
			wantSnapshot(t, s, snapStream, persistence.AtOrBelow(14), snaps[3])
			wantSnapshot(t, s, snapStream, persistence.LatestSnapshot(), snaps[4])
			if err := s.DeleteSnapshots(ctx, snapStream, persistence.LatestSnapshot()); err != nil {
				t.Fatalf("DeleteSnapshots(all) = %v", err)
			}
			wantNoSnapshot(t, s, snapStream, persistence.LatestSnapshot())
		}},
		{name: "snapshot: delete by min bounds keeps older snapshots", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			snaps := writeSnapshots(t, s)
			c := persistence.SnapshotCriteria{MinSeq: 14}
			if err := s.DeleteSnapshots(ctx, snapStream, c); err != nil {
				t.Fatalf("DeleteSnapshots(%+v) = %v", c, err)
			}
			wantSnapshot(t, s, snapStream, persistence.LatestSnapshot(), snaps[2])
		}},
		{name: "snapshot: do not delete on a non-matching timestamp", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			snaps := writeSnapshots(t, s)
			md := snaps[3] // seq 14
			c := persistence.SnapshotCriteria{MaxSeq: md.Seq, MaxTimestamp: md.Timestamp.Add(-time.Nanosecond)}
			if err := s.DeleteSnapshots(ctx, snapStream, c); err != nil {
				t.Fatalf("DeleteSnapshots(%+v) = %v", c, err)
			}
			wantSnapshot(t, s, snapStream, persistence.SnapshotCriteria{MaxSeq: md.Seq, MaxTimestamp: md.Timestamp}, md)
			wantNoSnapshot(t, s, snapStream, persistence.AtOrBelow(13)) // 11..13 matched and are gone
			wantSnapshot(t, s, snapStream, persistence.LatestSnapshot(), snaps[4])
		}},
		{name: "snapshot: save and overwrite at the same seq", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			snaps := writeSnapshots(t, s)
			md := snaps[4]
			md.Data, md.Timestamp = []byte("s-5-modified"), snapTime(30)
			if err := s.SaveSnapshot(ctx, md); err != nil {
				t.Fatalf("SaveSnapshot(seq 15 again) = %v", err)
			}
			wantSnapshot(t, s, snapStream, persistence.LatestSnapshot(), md)
			wantSnapshot(t, s, snapStream, persistence.AtOrBelow(14), snaps[3])
		}},
		{name: "snapshot: save a large snapshot", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			rng := rand.New(rand.NewPCG(1, 2))
			for i, size := range []int{10_000, 4 << 20} {
				data := make([]byte, size)
				for j := range data {
					data[j] = byte(rng.Uint32())
				}
				snap := persistence.Snapshot{Stream: snapStream, Seq: uint64(100 + i), Timestamp: snapTime(i), Data: data}
				if err := s.SaveSnapshot(ctx, snap); err != nil {
					t.Fatalf("SaveSnapshot(%d bytes) = %v", size, err)
				}
				wantSnapshot(t, s, snapStream, persistence.LatestSnapshot(), snap)
			}
		}},
		{name: "snapshot: data and timestamp round-trip exactly", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			every := make([]byte, 512)
			for i := range every {
				every[i] = byte(i)
			}
			tests := []struct {
				name string
				data []byte
				ts   time.Time
			}{
				{"every byte value", every, snapTime(1)},
				{"JSON", []byte(`{"k":"v","n":[1,2,3]}` + "\n"), snapTime(2)},
				{"nanoseconds and a zone", []byte("x"), time.Date(2031, 12, 31, 23, 59, 59, 123456789, time.FixedZone("X", 5*3600))},
				{"empty data", []byte{}, snapTime(3)},
			}
			for i, tt := range tests {
				snap := persistence.Snapshot{Stream: snapStream, Seq: uint64(i + 1), Timestamp: tt.ts, Data: tt.data}
				if err := s.SaveSnapshot(ctx, snap); err != nil {
					t.Fatalf("%s: SaveSnapshot = %v", tt.name, err)
				}
				got, ok, err := s.LoadSnapshot(ctx, snapStream, persistence.AtOrBelow(snap.Seq))
				if err != nil || !ok || !sameSnapshot(got, snap) {
					t.Errorf("%s: LoadSnapshot = %s, %v, %v; want %s", tt.name, describeSnapshot(got), ok, err, describeSnapshot(snap))
				}
			}
		}},
		{name: "snapshot: zero and far timestamps round-trip or are refused", run: func(t *testing.T, f Factory) {
			// Timestamps outside what int64 Unix nanoseconds can hold
			// (1678..2262), the zero time among them, must not come back as
			// a different instant; refusing them is fine.
			s := f.Open(t)
			for i, ts := range []time.Time{{}, time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC)} {
				snap := persistence.Snapshot{Stream: snapStream, Seq: uint64(i + 1), Timestamp: ts, Data: []byte("x")}
				if err := s.SaveSnapshot(ctx, snap); err != nil {
					continue
				}
				got, ok, err := s.LoadSnapshot(ctx, snapStream, persistence.AtOrBelow(snap.Seq))
				if err != nil || !ok || !got.Timestamp.Equal(ts) {
					t.Errorf("SaveSnapshot(timestamp %v) then LoadSnapshot = timestamp %v, %v, %v; want %v (or SaveSnapshot refusing it)",
						ts, got.Timestamp, ok, err, ts)
				}
			}
		}},
		{name: "snapshot: the caller's buffer is not kept", run: func(t *testing.T, f Factory) {
			s := f.Open(t)
			data := []byte("original")
			if err := s.SaveSnapshot(ctx, persistence.Snapshot{Stream: snapStream, Seq: 1, Timestamp: snapTime(1), Data: data}); err != nil {
				t.Fatalf("SaveSnapshot = %v", err)
			}
			copy(data, "MUTATED!")
			got, _, _ := s.LoadSnapshot(ctx, snapStream, persistence.LatestSnapshot())
			copy(got.Data, "MUTATED!")
			wantSnapshot(t, s, snapStream, persistence.LatestSnapshot(), persistence.Snapshot{Stream: snapStream, Seq: 1, Timestamp: snapTime(1), Data: []byte("original")})
		}},
	}
}

// runOversizedBatch appends a batch too large for one Badger transaction
// (5 events of 700 KB, each under Badger's value threshold, so it counts
// whole) while small appends run on other streams: the big batch must land
// whole or fail with persistence.ErrBatchTooLarge writing nothing, and the small
// appends sharing its commit cycle must be unaffected.
func runOversizedBatch(t *testing.T, f Factory) {
	s := f.Open(t)
	ctx := context.Background()
	big := testEvents("big", 1, 5)
	for i := range big {
		big[i].Payload = json.RawMessage(`{"n":` + strconv.Itoa(i+1) + `,"pad":"` + strings.Repeat("p", 700_000) + `"}`)
	}
	var wg sync.WaitGroup
	for g := range 16 {
		stream := fmt.Sprintf("small-%d", g)
		wg.Go(func() {
			for i := 1; i <= 5; i++ {
				if first, err := s.Append(ctx, stream, testEvents(stream, i, i)); err != nil || first != uint64(i) {
					t.Errorf("Append(%s) = %d, %v; want %d, nil", stream, first, err, i)
					return
				}
			}
		})
	}
	first, err := s.Append(ctx, "big", big)
	wg.Wait()
	switch {
	case errors.Is(err, persistence.ErrBatchTooLarge):
		t.Logf("%s refused a 3.5 MB batch: %v", f.Name, err)
		wantHighest(t, s, "big", 0)
		if evs := mustRead(t, s, "big", 1, maxSeq, 0); len(evs) != 0 {
			t.Fatalf("after ErrBatchTooLarge Read(big) = %v, want []", seqsOf(evs))
		}
	case err != nil:
		t.Fatalf("Append(5 x 700 KB) = %v, want nil or ErrBatchTooLarge", err)
	default:
		if first != 1 {
			t.Fatalf("Append(5 x 700 KB) = first %d, want 1", first)
		}
		evs := mustRead(t, s, "big", 1, maxSeq, 0)
		if len(evs) != len(big) {
			t.Fatalf("Read(big) = %v, want [1 2 3 4 5]", seqsOf(evs))
		}
		for i, ev := range evs {
			if !sameEvent(ev, big[i], uint64(i+1)) {
				t.Errorf("Read(big)[%d] differs from what was appended", i)
			}
		}
	}
	for g := range 16 {
		stream := fmt.Sprintf("small-%d", g)
		wantSeqs(t, s, stream, 1, maxSeq, 0, seqRange(1, 5))
	}
	wantAppendFirst(t, s, "big", testEvents("big", 1, 1)[:1], mustHighest(t, s, "big")+1)
}
