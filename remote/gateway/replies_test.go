package gateway_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/remote/gateway"
	"github.com/holon-actors/holon-actors/remote/remotepb"
	"github.com/holon-actors/holon-actors/remote/remotetest"
	"github.com/holon-actors/holon-actors/remote/tlsca"
	"github.com/holon-actors/holon-actors/testkit"
)

// logLines is a log writer handing each line to the test.
type logLines chan string

func (l logLines) Write(p []byte) (int, error) {
	select {
	case l <- string(p):
	default: // a test waits for the few lines it needs; a full buffer drops the rest
	}
	return len(p), nil
}

// waitLine returns the first line holding every one of parts.
func (l logLines) waitLine(t *testing.T, parts ...string) string {
	t.Helper()
	deadline := time.After(wait)
	for {
		select {
		case line := <-l:
			if containsAll(line, parts) {
				return line
			}
		case <-deadline:
			t.Fatalf("no log line with %q within %v", parts, wait)
		}
	}
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// newRigWith is newRig with cfg's bounds and a log the test reads.
func newRigWith(t *testing.T, set func(*gateway.Config)) (*rig, logLines) {
	t.Helper()
	h := testkit.New(t)
	if _, err := h.Runtime.Info(context.Background(), "main"); err != nil {
		t.Fatal(err)
	}
	c := newCreds(t)
	lines := make(logLines, 4096)
	cfg := gateway.Config{Listen: "127.0.0.1:0", TLS: c.member, Log: zerolog.New(lines),
		Operator: control.Operator{Runtime: h.Runtime, Store: h.Store(), Clock: h.Clock}}
	set(&cfg)
	node, err := gateway.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := node.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return &rig{h: h, node: node, c: c, gw: actor.NewPID(node.Addr(), gateway.GatewayName)}, lines
}

// TestARequestNamingAnotherClientsReplyAddressIsDropped: bob names
// alice's endpoint as his reply address (and a reply actor there). The
// node learns that the address holds alice's certificate, not bob's: the
// request is not run, nothing is sent to alice, and a line says why.
// Before, the node answered bob's request at alice's endpoint, where the
// reply could complete one of alice's own requests.
func TestARequestNamingAnotherClientsReplyAddressIsDropped(t *testing.T) {
	r, lines := newRigWith(t, func(*gateway.Config) {})
	_, aliceIn := r.client(t, r.c.alice)
	bob, bobIn := r.client(t, r.c.bob)
	spoof := remotetest.Batch(r.gw, actor.NewPID(aliceIn.Addr, "future$1"), textPrompt("main", "m-spoof", "from bob"))
	if err := bob.SendBatch(spoof); err != nil {
		t.Fatal(err)
	}
	line := lines.waitLine(t, "a request dropped unanswered", "held by another certificate")
	if !containsAll(line, []string{`"peer":"bob"`, aliceIn.Addr}) {
		t.Errorf("log line = %s, want bob and alice's address", line)
	}
	if got, err := aliceIn.Wait("future$1", 0); err == nil {
		t.Fatalf("alice's endpoint got %v for bob's request", got)
	}
	if st := r.node.Replies(aliceIn.Addr); st.Holder != "" && st.Holder != "alice" {
		t.Errorf("holder of alice's address = %q", st.Holder)
	}
	// Bob's own address is answered, and the spoofed prompt never ran.
	page, ok := r.request(t, bob, bobIn, &remotepb.ReadEvents{AgentId: "main"}).(*remotepb.EventsPage)
	if !ok {
		t.Fatalf("ReadEvents = %v", page)
	}
	for _, ev := range page.Events {
		if ev.Provenance.MessageId == "m-spoof" {
			t.Fatalf("the spoofed prompt was admitted at seq %d", ev.Provenance.EventSeq)
		}
	}
}

// TestOneCertificateCannotHoldEveryRequestSlot: alice's long poll holds
// her only slot (MaxInFlightPerClient 1); her next request is answered
// client_busy at once, while bob, another certificate, is served.
// Before, one client's 30 s long polls could hold all of the gateway's
// slots.
func TestOneCertificateCannotHoldEveryRequestSlot(t *testing.T) {
	r, _ := newRigWith(t, func(c *gateway.Config) { c.MaxInFlightPerClient = 1 })
	alice, aliceIn := r.client(t, r.c.alice)
	page, ok := r.request(t, alice, aliceIn, &remotepb.ReadEvents{AgentId: "main"}).(*remotepb.EventsPage)
	if !ok {
		t.Fatalf("ReadEvents = %v", page)
	}
	// A long poll after the last event: it waits for one.
	if err := alice.SendBatch(remotetest.Batch(r.gw, actor.NewPID(aliceIn.Addr, "poll"),
		&remotepb.ReadEvents{AgentId: "main", After: page.HighestSeq, WaitMs: 30_000})); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "alice's poll in flight", func() bool { return r.node.Replies(aliceIn.Addr).InFlight == 1 })
	busy, ok := r.request(t, alice, aliceIn, &remotepb.ListAgents{}).(*remotepb.Error)
	if !ok || busy.Code != remotepb.CodeClientBusy || busy.HttpStatus != 429 || !strings.Contains(busy.Message, "1 remote requests in flight") || busy.Hint == "" {
		t.Errorf("client_busy = %v", busy)
	}
	bob, bobIn := r.client(t, r.c.bob)
	if _, ok := r.request(t, bob, bobIn, &remotepb.ListAgents{}).(*remotepb.AgentList); !ok {
		t.Error("bob is not served while alice's poll holds her slot")
	}
}

// TestRepliesToAnAddressThatDoesNotReadAreBounded (the package's last
// test: the endpoints it leaves stuck close after its node stops, and
// upstream's remote races on gRPC's global logger with a node started
// meanwhile): bob's endpoint accepts
// the node's connection and then reads nothing, while bob floods the node
// with requests whose replies are large. Remote's writer queues without
// bound for such a connection (the node grew by hundreds of MiB); the
// node now keeps at most MaxQueuedReplies of bob's replies waiting (plus
// the few of his requests in flight when the bound is reached), drops the
// rest unanswered with a log line, and closes the stuck connection. Once
// bob's endpoint reads again, he is served again, told first of what was
// dropped if no reply has told him yet.
func TestRepliesToAnAddressThatDoesNotReadAreBounded(t *testing.T) {
	const maxQueued, perClient, flood = 8, 4, 120
	r, lines := newRigWith(t, func(c *gateway.Config) { c.MaxQueuedReplies, c.MaxInFlightPerClient = maxQueued, perClient })
	// One event of 48 KiB makes every page of the agent's events larger
	// than it.
	alice, aliceIn := r.client(t, r.c.alice)
	if _, ok := r.request(t, alice, aliceIn, textPrompt("main", "m-big", strings.Repeat("x", 48<<10))).(*remotepb.PromptAccepted); !ok {
		t.Fatal("the large prompt was not admitted")
	}
	held, release := remotetest.NewHeldInbox(t, r.c.bob.ServerConfig(tlsca.RoleMember))
	bob, err := remotetest.Dial(r.node.Addr(), r.c.bob.ClientConfig(tlsca.RoleMember))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bob.Close)
	if err := bob.Connect(held.Addr); err != nil {
		t.Fatal(err)
	}
	// The node's connection to the endpoint is up: the flood is queued
	// behind a connection that does not read, not behind its dial.
	if err := bob.SendBatch(remotetest.Batch(r.gw, actor.NewPID(held.Addr, "first"), &remotepb.ListAgents{})); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the node's connection to bob's endpoint", func() bool {
		st := r.node.Replies(held.Addr)
		return st.Holder == "bob" && st.Queued == 0
	})
	for i := range flood {
		if err := bob.SendBatch(remotetest.Batch(r.gw, actor.NewPID(held.Addr, fmt.Sprintf("flood-%d", i)), &remotepb.ReadEvents{AgentId: "main"})); err != nil {
			t.Fatal(err)
		}
	}
	lines.waitLine(t, "a request dropped unanswered", "does not read its replies", held.Addr)
	waitFor(t, "every request of the flood decided", func() bool { return r.node.Replies(held.Addr).Requests == flood+1 })
	st := r.node.Replies(held.Addr)
	if st.Peak > maxQueued+perClient {
		t.Errorf("replies queued for the address that does not read: peak %d, want at most %d + %d", st.Peak, maxQueued, perClient)
	}
	if st.Peak < maxQueued || st.DroppedTotal == 0 {
		t.Errorf("peak %d, %d dropped: the flood never filled the queue (%d)", st.Peak, st.DroppedTotal, maxQueued)
	}
	release()
	waitFor(t, "the queue drained or freed", func() bool { return r.node.Replies(held.Addr).Queued == 0 })
	if pending := r.node.Replies(held.Addr).Dropped; pending > 0 {
		e, ok := r.request(t, bob, held, &remotepb.ListAgents{}).(*remotepb.Error)
		if !ok || e.Code != remotepb.CodeRepliesDropped || e.HttpStatus != 429 || e.Hint == "" ||
			!strings.Contains(e.Message, fmt.Sprintf("%d requests answered at %s were dropped", pending, held.Addr)) {
			t.Fatalf("first reply after the drops = %v, want replies_dropped for %d", e, pending)
		}
	}
	if _, ok := r.request(t, bob, held, &remotepb.ListAgents{}).(*remotepb.AgentList); !ok {
		t.Error("bob is not served once his endpoint reads")
	}
}

// waitFor polls cond, state the node's goroutines change, until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(wait); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, wait)
		}
		time.Sleep(10 * time.Millisecond) // polling the node's counters, which have no event to wait on
	}
}
