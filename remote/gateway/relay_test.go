package gateway_test

import (
	"net"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/remote/gateway"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// TestAMessageForAnotherAddressIsDeliveredHereNotRelayed: a client that
// writes the node's address another way (localhost for 127.0.0.1, as
// every client of a node listening on 0.0.0.0 does) reaches this node's
// gateway and is recorded as itself. Before, the node relayed the message
// to that address with its own member certificate: to itself, forever, at
// full CPU (no reply ever came), or to another node as the node, not the
// client.
func TestAMessageForAnotherAddressIsDeliveredHereNotRelayed(t *testing.T) {
	r := newRig(t)
	p, in := r.client(t, r.c.alice)
	_, port, err := net.SplitHostPort(r.node.Addr())
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := actor.NewPID(net.JoinHostPort("localhost", port), gateway.GatewayName)
	reply, err := p.Request(elsewhere, in, textPrompt("main", "m-relay", "hello"), wait)
	if err != nil {
		t.Fatalf("no reply to a prompt addressed to localhost:%s: %v", port, err)
	}
	acc, ok := reply.(*remotepb.PromptAccepted)
	if !ok {
		t.Fatalf("reply = %v, want PromptAccepted", reply)
	}
	page, ok := r.request(t, p, in, &remotepb.ReadEvents{AgentId: "main", After: acc.EventSeq - 1, Limit: 1}).(*remotepb.EventsPage)
	if !ok || len(page.Events) != 1 {
		t.Fatalf("ReadEvents = %v", page)
	}
	if pv := page.Events[0].Provenance; pv.Kind != string(messages.EventMessageAdmitted) || pv.Origin.GetOperator().GetActorId() != "operator:remote:alice" {
		t.Errorf("admitted %v, want the prompt of operator:remote:alice", pv)
	}
}
