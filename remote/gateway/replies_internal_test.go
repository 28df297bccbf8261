package gateway

import (
	"context"
	"errors"
	"net"
	"testing"

	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// TestReplyBookDecides walks one reply address through the book's
// decisions: its holder is checked, the requests of one certificate in
// flight are capped, replies past the queue bound are dropped (the stuck
// connection closed), and the next request after a drop is told.
func TestReplyBookDecides(t *testing.T) {
	probes := 0
	b := newReplyBook(2, 1<<20, 1, func(context.Context, string) (string, error) { probes++; return "bob", nil })
	ctx := context.Background()
	const addr = "127.0.0.1:9"

	if _, _, err := b.admit(ctx, addr, "mallory"); !errors.Is(err, errSpoofed) {
		t.Fatalf("mallory at bob's address: %v, want errSpoofed", err)
	}
	release, refusal, err := b.admit(ctx, addr, "bob")
	if err != nil || refusal != nil {
		t.Fatalf("bob: %v, %v", refusal, err)
	}
	if _, refusal, _ := b.admit(ctx, addr, "bob"); refusal.GetCode() != remotepb.CodeClientBusy {
		t.Fatalf("a second request in flight (cap 1): %v, want client_busy", refusal)
	}
	b.queue(addr, "bob", &remotepb.AgentList{})
	release()
	if probes != 1 {
		t.Errorf("probes = %d, want 1 (the answer stands for the address)", probes)
	}
	// Two replies queued (client_busy's and the answer): the bound.
	node, peer := net.Pipe()
	defer peer.Close()
	b.connected(addr, "bob", &bookedConn{Conn: node, addr: addr, book: b})
	if _, _, err := b.admit(ctx, addr, "bob"); !errors.Is(err, errNotReading) {
		t.Fatalf("past the bound: %v, want errNotReading", err)
	}
	if _, err := node.Write([]byte{0}); err == nil {
		t.Error("the stuck connection is still open")
	}
	if st := b.stats(addr); st.Holder != "" || st.Dropped != 1 || st.Queued != 2 {
		t.Errorf("stats = %+v", st)
	}
	b.terminated(addr) // remote's endpoint ends with its connection
	_, refusal, err = b.admit(ctx, addr, "bob")
	if err != nil || refusal.GetCode() != remotepb.CodeRepliesDropped {
		t.Fatalf("after the drop: %v, %v, want replies_dropped", refusal, err)
	}
	b.sent(addr, 1, 0)
	if release, refusal, err = b.admit(ctx, addr, "bob"); err != nil || refusal != nil {
		t.Fatalf("once told: %v, %v", refusal, err)
	}
	release()
	failing := newReplyBook(2, 1<<20, 1, func(context.Context, string) (string, error) { return "", errors.New("refused") })
	if _, _, err := failing.admit(ctx, addr, "bob"); !errors.Is(err, errUnreachable) {
		t.Errorf("an address no handshake reaches: %v, want errUnreachable", err)
	}
}

// TestReplyBookBoundsQueuedBytes: a few large replies fill the bound as
// many small ones do.
func TestReplyBookBoundsQueuedBytes(t *testing.T) {
	b := newReplyBook(100, 1000, 10, func(context.Context, string) (string, error) { return "bob", nil })
	ctx := context.Background()
	const addr = "127.0.0.1:9"
	release, _, err := b.admit(ctx, addr, "bob")
	if err != nil {
		t.Fatal(err)
	}
	b.queue(addr, "bob", &remotepb.EventsPage{AgentId: "main", Events: []*remotepb.StreamEvent{{Payload: make([]byte, 1000)}}})
	release()
	if _, _, err := b.admit(ctx, addr, "bob"); !errors.Is(err, errNotReading) {
		t.Fatalf("one reply over the byte bound queued: %v, want errNotReading", err)
	}
	if st := b.stats(addr); st.Queued != 1 || st.QueuedBytes < 1000 {
		t.Errorf("stats = %+v", st)
	}
	b.sent(addr, 1, b.stats(addr).QueuedBytes)
	if _, refusal, err := b.admit(ctx, addr, "bob"); err != nil || refusal.GetCode() != remotepb.CodeRepliesDropped {
		t.Fatalf("once sent: %v, %v, want replies_dropped", refusal, err)
	}
}
