package remote_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/remote"
	"github.com/holon-actors/holon-actors/remote/remotepb"
	"github.com/holon-actors/holon-actors/remote/remotetest"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// TestAReplyThatDoesNotAnswerTheRequestIsDropped: a stand-in node answers
// a client's GetStatus first with another agent's status and a prompt's
// acceptance, then with the status asked for. The client drops the two
// and returns the third. Before, the first message to reach the request's
// future completed it, and futures are named by a counter, so a peer
// that could reach the client's endpoint could answer its requests. It
// runs in a child process of this test binary, as TestNoNode does: the
// stand-in node's gRPC goroutines race with ExampleDial's remote on gRPC's
// global logger.
func TestAReplyThatDoesNotAnswerTheRequestIsDropped(t *testing.T) {
	if os.Getenv(noNodeChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAReplyThatDoesNotAnswerTheRequestIsDropped$", "-test.v")
		cmd.Env = append(os.Environ(), noNodeChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestAReplyThatDoesNotAnswerTheRequestIsDropped") {
			t.Fatalf("in a child process: %v\n%s", err, out)
		}
		return
	}
	dirs := issuedAll(t, tlsca.RoleMember, tlsca.RoleClient)
	member, err := tlsca.Load(dirs[0], tlsca.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := remote.Dial(context.Background(), remote.Options{Addr: l.Addr().String(), TLSDir: dirs[1], CallTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	node := remotetest.NewInboxOn(t, l, member.ServerConfig(tlsca.RoleClient))
	type result struct {
		id  string
		err error
	}
	done := make(chan result, 1)
	go func() {
		s, err := c.Status(context.Background(), "main")
		done <- result{s.ID, err}
	}()
	req, err := node.WaitDelivery(remotepb.GatewayName, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if req.From == nil || !strings.HasPrefix(req.From.Id, "reply-") || len(req.From.Id) < 32 {
		t.Fatalf("the request's reply PID is %v, want a random name", req.From)
	}
	back, err := remotetest.Dial(req.From.Address, member.ClientConfig(tlsca.RoleClient))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if err := back.Connect(node.Addr); err != nil {
		t.Fatal(err)
	}
	for _, m := range []proto.Message{
		&remotepb.AgentStatus{AgentId: "other", Status: "idle", StatusJson: []byte(`{"agent_id":"other"}`)},
		&remotepb.PromptAccepted{AgentId: "main", MessageId: "m-1", EventSeq: 7},
		&remotepb.AgentStatus{AgentId: "main", Status: "idle", StatusJson: []byte(`{"agent_id":"main","status":"awake_idle"}`)},
	} {
		if err := back.SendBatch(remotetest.Batch(actor.NewPID(req.From.Address, req.From.Id), nil, m)); err != nil {
			t.Fatal(err)
		}
	}
	got := <-done
	if got.err != nil || got.id != "main" {
		t.Fatalf("Status = %q, %v, want main's", got.id, got.err)
	}
	if n := c.Dropped(); n != 2 {
		t.Errorf("Dropped = %d, want the 2 replies that did not answer", n)
	}
}
