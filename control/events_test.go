package control_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// follow opens an event stream on agent id from the start and returns
// once its first event arrived; cancel closes it and waits for Follow.
func follow(t *testing.T, f *fixture, id string) (cancel func()) {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	first := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		var once bool
		_, err := f.c.Follow(ctx, id, 0, func(control.StreamEvent) error {
			if !once {
				once = true
				close(first)
			}
			return nil
		})
		done <- err
	}()
	select {
	case <-first:
	case err := <-done:
		stop()
		t.Fatalf("Follow ended before its first event: %v", err)
	}
	return func() {
		stop()
		<-done
	}
}

// TestEventStreamCap: past MaxEventStreams a stream is refused with 429,
// Retry-After and a message saying why and what to do, while JSON pages
// still answer; a closed stream frees its place and lets go of its
// subscription.
func TestEventStreamCap(t *testing.T) {
	f := newFixtureWith(t, func(c *control.Config) { c.MaxEventStreams = 2 })
	ctx := context.Background()
	closeFirst := follow(t, f, "main")
	closeSecond := follow(t, f, "main")
	if n := f.srv.EventStreams(); n != 2 {
		t.Fatalf("EventStreams = %d, want 2", n)
	}

	resp, body := f.raw(t, "GET", "/agents/main/events", "", "Accept", "text/event-stream")
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "5" {
		t.Fatalf("stream over the cap = HTTP %d, Retry-After %q; want 429 with Retry-After 5", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	var e struct{ Error control.Error }
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Kind != control.KindBackpressure ||
		!strings.Contains(e.Error.Message, "event stream limit (2 open at once") || !strings.Contains(e.Error.Hint, "retry in 5 s") {
		t.Fatalf("refusal body %s (%v): want backpressure naming the cap and a hint", body, err)
	}
	_, err := f.c.Follow(ctx, "main", 0, func(control.StreamEvent) error { return nil })
	apiError(t, err, http.StatusTooManyRequests, control.KindBackpressure)
	if page, err := f.c.Events(ctx, "main", 0, 10); err != nil || len(page.Events) == 0 {
		t.Fatalf("JSON page at the cap = %d events, %v; want served", len(page.Events), err)
	}

	closeFirst()
	if err := f.srv.WaitEventStreams(ctx, 1); err != nil {
		t.Fatal(err)
	}
	closeThird := follow(t, f, "main")
	closeSecond()
	closeThird()
	if err := f.srv.WaitEventStreams(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if n := f.srv.EventStreams(); n != 0 {
		t.Fatalf("EventStreams after every stream closed = %d, want 0", n)
	}
}

// TestEventPagesBoundedBySize: a JSON page of large events holds fewer
// than its limit, bounded by MaxPageBytes, and next_after moves on from
// its last event (the stream's pages: TestFramePagesBoundedBySize).
func TestEventPagesBoundedBySize(t *testing.T) {
	f := newFixture(t)
	// A journal the runtime leaves alone: a dormant agent's, written here.
	appendReceipts(t, f, "big", 5, 1<<20+1)
	resp, body := f.raw(t, "GET", "/agents/big/events?limit=100", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET events = HTTP %d: %.200s", resp.StatusCode, body)
	}
	want := control.MaxPageBytes>>20 - 1 // records are a little over 1 MiB
	if n := strings.Count(body, `"event_seq":`); n != want {
		t.Fatalf("JSON page of five 1 MiB events holds %d, want %d (bounded by MaxPageBytes)", n, want)
	}
	if !strings.Contains(body, fmt.Sprintf(`"next_after": %d,`, want)) {
		t.Fatalf("page %.300s…: want next_after %d", body, want)
	}
}

// appendReceipts appends n tool results with receipts of size bytes to
// agent's journal.
func appendReceipts(t *testing.T, f *fixture, agent string, n, size int) {
	t.Helper()
	for i := range n {
		ev, err := messages.NewEvent(agent, time.Now(), messages.ToolExecuted{TurnID: "turn-1", CallID: fmt.Sprint("call-", i),
			ToolName: "exec_command", Status: messages.ToolOK, Envelope: []byte(`{}`), Receipt: strings.Repeat("x", size)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.h.Store().Append(context.Background(), agent, []messages.Event{ev}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStalledStreamDropped: a client that stops reading is dropped once a
// page waits StreamWriteTimeout for it, giving back its place.
func TestStalledStreamDropped(t *testing.T) {
	f := newFixtureWith(t, func(c *control.Config) { c.StreamWriteTimeout = 100 * time.Millisecond })
	// More than the socket buffers hold, so the server's writes block.
	appendReceipts(t, f, "big", 8, 1<<20)
	conn, err := net.Dial("unix", f.sock)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := fmt.Fprint(conn, "GET /agents/big/events HTTP/1.1\r\nHost: holon\r\nAccept: text/event-stream\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Read(make([]byte, 512)); err != nil { // the status line: the stream is open
		t.Fatal(err)
	}
	// Then this client reads nothing more.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a failure bound only
	defer cancel()
	if err := f.srv.WaitEventStreams(ctx, 0); err != nil {
		t.Fatalf("the stalled stream is still open (%d): %v", f.srv.EventStreams(), err)
	}
}
