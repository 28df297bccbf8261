package gateway_test

import (
	"net"
	"slices"
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

// TestConnectionsOverTheLimitAreClosedAtOnce: peers holding connections
// without a handshake (no certificate needed) take at most MaxConns of
// them; one more is closed at once, so a flood cannot use up the
// process's file descriptors (its control socket and journals). Closing
// them frees their slots for clients.
func TestConnectionsOverTheLimitAreClosedAtOnce(t *testing.T) {
	h := testkit.New(t)
	c := newCreds(t)
	node, err := gateway.Start(gateway.Config{Listen: "127.0.0.1:0", TLS: c.member, Log: zerolog.Nop(), MaxConns: 3,
		Operator: control.Operator{Runtime: h.Runtime, Store: h.Store(), Clock: h.Clock}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node.Stop() })
	// gRPC hands each accepted connection to a goroutine of its own, so
	// which of four is the one past the limit is not known: exactly one is
	// closed at once (a read ends with EOF), well before the handshake
	// timeout (10 s) would close the others.
	conns := make([]net.Conn, 4)
	for i := range conns {
		if conns[i], err = net.Dial("tcp", node.Addr()); err != nil {
			t.Fatal(err)
		}
		defer conns[i].Close()
	}
	closed := make(chan int, len(conns))
	for i, conn := range conns {
		go func() {
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			if _, err := conn.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
				closed <- i
				return
			}
			closed <- -1
		}()
	}
	var shut []int
	for range conns {
		if i := <-closed; i >= 0 {
			shut = append(shut, i)
		}
	}
	if len(shut) != 1 {
		t.Fatalf("connections closed at once: %v, want exactly the one past the limit of 3", shut)
	}
	held := slices.Delete(conns, shut[0], shut[0]+1)
	for _, conn := range held {
		conn.Close()
	}
	in := remotetest.NewInbox(t, c.alice.ServerConfig(tlsca.RoleMember))
	// The slots come back as the node sees the closes: a client gets in.
	for deadline := time.Now().Add(wait); ; {
		p, err := remotetest.Dial(node.Addr(), c.alice.ClientConfig(tlsca.RoleMember))
		if err == nil {
			if err = p.Connect(in.Addr); err == nil {
				_, err = p.Request(actor.NewPID(node.Addr(), gateway.GatewayName), in, &remotepb.ListAgents{}, wait)
			}
			p.Close()
		}
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a client is not served after the held connections closed: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // polling the node's accept loop, another goroutine's view of the closes
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
