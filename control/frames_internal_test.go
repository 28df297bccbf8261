package control

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// bigEvents appends n tool results of size bytes each to agent's journal.
func bigEvents(t *testing.T, st persistence.Journal, agent string, n, size int) {
	t.Helper()
	for i := range n {
		ev, err := messages.NewEvent(agent, time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC), messages.ToolExecuted{
			TurnID: "turn-1", CallID: "call-" + strconv.Itoa(i), ToolName: "exec_command", Status: messages.ToolOK,
			Envelope: []byte(`{}`), Receipt: strings.Repeat("x", size)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Append(context.Background(), agent, []messages.Event{ev}); err != nil {
			t.Fatal(err)
		}
	}
}

const testPageBytes = 8 << 10

// TestFramePagesBoundedBySize: a stream over a journal of large events
// gets them in pages of at most its page size of events (one larger
// event alone), in order, replayed up to opened and live after it. The
// page is 8 KiB here (1 MiB in production) to keep the test quick.
func TestFramePagesBoundedBySize(t *testing.T) {
	tests := []struct {
		name        string
		size, count int
		perPage     int // events in a full page
	}{
		{"2.4 KB events, three to a page", 2400, 10, 3},
		{"events larger than a page, one each", testPageBytes + 1, 3, 1},
		{"small events, a page holds them all", 10, 50, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := persistence.NewMemStore()
			bigEvents(t, st, "a", tt.count, tt.size)
			c := newFrameCache(st, 0)
			c.pageBytes = testPageBytes
			opened := uint64(tt.count / 2)
			var after uint64
			for after < uint64(tt.count) {
				frames, err := c.next(context.Background(), "a", after, opened)
				if err != nil {
					t.Fatal(err)
				}
				if len(frames) == 0 || len(frames) > tt.perPage {
					t.Fatalf("page after %d has %d events, want 1 to %d", after, len(frames), tt.perPage)
				}
				for _, f := range frames {
					if f.seq != after+1 {
						t.Fatalf("frame seq %d after %d, want %d", f.seq, after, after+1)
					}
					replayed := strings.Contains(string(f.data), `"replayed":true`)
					if replayed != (f.seq <= opened) {
						t.Fatalf("frame %d replayed=%v with opened %d", f.seq, replayed, opened)
					}
					after = f.seq
				}
				if len(frames) < tt.perPage && after < opened && after < uint64(tt.count) {
					t.Fatalf("short page (%d events) ending at %d before opened %d", len(frames), after, opened)
				}
			}
			if frames, err := c.next(context.Background(), "a", after, opened); err != nil || len(frames) != 0 {
				t.Fatalf("next after the last event = %d frames, %v; want none", len(frames), err)
			}
		})
	}
}

// TestFramesSharedByStreams: streams at the same cursor get the same
// encoded bytes, read and encoded once however many ask at once; the
// cache keeps at most its bound and clear empties it.
func TestFramesSharedByStreams(t *testing.T) {
	const size, streams = 128 << 10, 16
	st := persistence.NewMemStore()
	bigEvents(t, st, "a", 2, size)
	bigEvents(t, st, "b", 1, size)
	ctx := context.Background()
	c := newFrameCache(st, 3*size) // room for one frame (the receipt is in it twice)
	c.pageBytes = size             // one event a page

	// What one stream's read and encoding of one event allocates.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := c.next(ctx, "b", 0, 0); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	one := after.TotalAlloc - before.TotalAlloc

	got := make([][]*frame, streams)
	var wg sync.WaitGroup
	start := make(chan struct{})
	runtime.ReadMemStats(&before)
	for i := range streams {
		wg.Go(func() {
			<-start
			frames, err := c.next(ctx, "a", 0, 0)
			if err != nil {
				t.Error(err)
			}
			got[i] = frames
		})
	}
	close(start)
	wg.Wait()
	runtime.ReadMemStats(&after)
	if all := after.TotalAlloc - before.TotalAlloc; all > 2*one {
		t.Fatalf("%d streams at one cursor allocated %d bytes, want under twice one stream's %d: the event is encoded once", streams, all, one)
	}
	for i := range got {
		if len(got[i]) != 1 || &got[i][0].data[0] != &got[0][0].data[0] {
			t.Fatalf("stream %d got %d frames, not the shared one", i, len(got[i]))
		}
	}

	// The next event evicts the first (the cache holds one), and clear
	// drops the rest.
	if _, err := c.next(ctx, "a", 1, 0); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	n, bytes := c.lru.Len(), c.bytes
	c.mu.Unlock()
	if n != 1 || bytes > 3*size {
		t.Fatalf("cache holds %d frames, %d bytes; want 1 within %d", n, bytes, 3*size)
	}
	c.clear()
	if c.lru.Len() != 0 || c.bytes != 0 || len(c.byKey) != 0 {
		t.Fatalf("after clear the cache holds %d frames, %d bytes", c.lru.Len(), c.bytes)
	}
}

// TestFramesNotFromAnEarlierRead: a stream woken by an append does not
// take the result of a read of its page that began before it asked (and
// may have missed the append); it waits for that read and reads again.
func TestFramesNotFromAnEarlierRead(t *testing.T) {
	st := persistence.NewMemStore()
	bigEvents(t, st, "a", 1, 10)
	c := newFrameCache(st, 0)
	key := frameKey{"a", 2, false}
	c.mu.Lock()
	c.reads++
	early := &pageLoad{done: make(chan struct{}), began: c.reads} // it will find nothing
	c.flight[key] = early
	c.mu.Unlock()

	bigEvents(t, st, "a", 1, 10) // event 2, whose signal wakes the stream
	type result struct {
		frames []*frame
		err    error
	}
	got := make(chan result, 1)
	go func() {
		frames, err := c.next(context.Background(), "a", 1, 1)
		got <- result{frames, err}
	}()
	for asked := false; !asked; runtime.Gosched() {
		c.mu.Lock()
		asked = c.reads > early.began // the stream found the early read in flight
		c.mu.Unlock()
	}
	c.mu.Lock()
	delete(c.flight, key)
	c.mu.Unlock()
	close(early.done)

	r := <-got
	if r.err != nil || len(r.frames) != 1 || r.frames[0].seq != 2 {
		t.Fatalf("next after 1 = %d frames, %v; want event 2", len(r.frames), r.err)
	}
}

// TestFramesSharedWhileHeld: a frame the cache let go of is still shared,
// not read again, while a stream holds it, and forgotten once nobody does.
func TestFramesSharedWhileHeld(t *testing.T) {
	const size = 64 << 10
	st := persistence.NewMemStore()
	bigEvents(t, st, "a", 2, size)
	ctx := context.Background()
	c := newFrameCache(st, 3*size) // room for one frame
	c.pageBytes = size             // one event a page

	held, err := c.next(ctx, "a", 0, 0) // a slow stream writing event 1
	if err != nil || len(held) != 1 {
		t.Fatalf("next = %d frames, %v", len(held), err)
	}
	if _, err := c.next(ctx, "a", 1, 0); err != nil { // event 2 evicts event 1
		t.Fatal(err)
	}
	c.mu.Lock()
	_, cached := c.byKey[frameKey{"a", 1, false}]
	c.mu.Unlock()
	if cached {
		t.Fatal("event 1 is still in the cache; the test needs it evicted")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	again, err := c.next(ctx, "a", 0, 0) // another stream, behind
	runtime.ReadMemStats(&after)
	if err != nil || len(again) != 1 || again[0] != held[0] {
		t.Fatalf("next after eviction = %v, %v; want the frame the first stream holds", again, err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > size {
		t.Fatalf("next of a held frame allocated %d bytes, want under %d: it is not read again", n, size)
	}
	runtime.KeepAlive(held)

	held, again = nil, nil
	c.clear()
	for i := 0; ; i++ {
		runtime.GC()
		c.mu.Lock()
		n := len(c.live)
		c.mu.Unlock()
		if n == 0 {
			break
		}
		if i == 1000 {
			t.Fatalf("%d live frames remembered after nothing holds them", n)
		}
		runtime.Gosched() // cleanups run on their own goroutine
	}
}
