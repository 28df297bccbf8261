package persistence

// Helpers the package's own tests share: test events, Badger stores that
// close with the test, and assertions that fail it. The Store conformance
// suite itself lives in persistence/storetest.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// failAfter bounds every wait on a channel. It only turns a hang into a
// failure; nothing waits for it to pass.
const failAfter = 10 * time.Second

// maxSeq is the "no upper bound" value for Read.
const maxSeq = math.MaxUint64

// testBadgerOptions are the default options with Badger's logs dropped.
func testBadgerOptions(dir string) Options {
	o := DefaultOptions(dir)
	o.Logger = slog.New(slog.DiscardHandler)
	return o
}

// openBadger opens a Badger store; the test's cleanup closes it.
func openBadger(t testing.TB, o Options) *BadgerStore {
	t.Helper()
	s, err := Open(o)
	if err != nil {
		t.Fatalf("Open(%s) = %v", o.Dir, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close(%s) = %v", o.Dir, err)
		}
	})
	return s
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

func mustAppend(t *testing.T, s Journal, stream string, evs []messages.Event) uint64 {
	t.Helper()
	first, err := s.Append(context.Background(), stream, evs)
	if err != nil {
		t.Fatalf("Append(%q, %d events) = %v", stream, len(evs), err)
	}
	return first
}

func mustRead(t *testing.T, s Journal, stream string, from, to uint64, limit int) []messages.Event {
	t.Helper()
	evs, err := s.Read(context.Background(), stream, from, to, limit)
	if err != nil {
		t.Fatalf("Read(%q, %s, %d) = %v", stream, rangeString(from, to), limit, err)
	}
	return evs
}

func mustHighest(t *testing.T, s Journal, stream string) uint64 {
	t.Helper()
	h, err := s.HighestSeq(context.Background(), stream)
	if err != nil {
		t.Fatalf("HighestSeq(%q) = %v", stream, err)
	}
	return h
}

func mustDelete(t *testing.T, s Journal, stream string, upTo uint64) {
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
func wantSeqs(t *testing.T, s Journal, stream string, from, to uint64, limit int, want []uint64) {
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

func wantHighest(t *testing.T, s Journal, stream string, want uint64) {
	t.Helper()
	if got := mustHighest(t, s, stream); got != want {
		t.Fatalf("HighestSeq(%q) = %d, want %d", stream, got, want)
	}
}

func wantAppendFirst(t *testing.T, s Journal, stream string, evs []messages.Event, want uint64) {
	t.Helper()
	if got := mustAppend(t, s, stream, evs); got != want {
		t.Fatalf("Append(%q, %d events) = first %d, want %d", stream, len(evs), got, want)
	}
}

// snapTime is the timestamp of the setup's snapshot i; the setup's
// snapshots are a minute apart.
func snapTime(i int) time.Time {
	return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
}

func sameSnapshot(got, want Snapshot) bool {
	return got.Stream == want.Stream && got.Seq == want.Seq && got.Timestamp.Equal(want.Timestamp) && bytes.Equal(got.Data, want.Data)
}

func describeSnapshot(s Snapshot) string {
	data := string(s.Data)
	if len(data) > 20 {
		data = fmt.Sprintf("%d bytes", len(s.Data))
	}
	return fmt.Sprintf("{%s seq %d at %s: %q}", s.Stream, s.Seq, s.Timestamp.Format(time.RFC3339Nano), data)
}

// TestBadgerRefusedAppendWritesNothing appends batches whose second event
// is larger than a value-log file (1 MiB here) while other streams append
// concurrently, so the refused batch shares commit cycles with good ones.
// The refusal must be ErrBatchTooLarge, must not quote the payload, and
// must leave nothing of the batch behind: not its first event either.
func TestBadgerRefusedAppendWritesNothing(t *testing.T) {
	o := testBadgerOptions(t.TempDir())
	o.ValueLogFileSize = 1 << 20
	s := openBadger(t, o)
	ctx := context.Background()
	var stop atomic.Bool
	var wg sync.WaitGroup
	for g := range 8 {
		stream := fmt.Sprintf("busy-%d", g)
		wg.Go(func() {
			for n := 1; !stop.Load(); n++ {
				if _, err := s.Append(ctx, stream, testEvents(stream, n, n)); err != nil {
					t.Errorf("Append(%s) = %v", stream, err)
					return
				}
			}
		})
	}
	const tries = 50
	for range tries {
		batch := testEvents("big", 1, 2)
		batch[1].Payload = json.RawMessage(`"` + strings.Repeat("x", 2<<20) + `"`)
		first, err := s.Append(ctx, "big", batch)
		if err == nil {
			t.Fatalf("Append(1 KB + 2 MiB events) = first %d, nil error; want ErrBatchTooLarge", first)
		}
		if !errors.Is(err, ErrBatchTooLarge) {
			msg, _, _ := strings.Cut(err.Error(), "\n")
			t.Errorf("Append(2 MiB event) = %q; want an error wrapping ErrBatchTooLarge", msg)
		}
		if strings.Contains(err.Error(), "xxxxxxxx") {
			t.Errorf("Append(2 MiB event) error quotes the payload (%d bytes of error text)", len(err.Error()))
		}
		if t.Failed() {
			break
		}
	}
	stop.Store(true)
	wg.Wait()
	wantHighest(t, s, "big", 0)
	if evs := mustRead(t, s, "big", 1, maxSeq, 0); len(evs) != 0 {
		t.Errorf("Read(big) after %d refused appends = %v, want []: part of a refused batch was committed", tries, seqsOf(evs))
	}
	for g := range 8 {
		stream := fmt.Sprintf("busy-%d", g)
		wantSeqs(t, s, stream, 1, maxSeq, 0, seqRange(1, mustHighest(t, s, stream)))
	}
}
