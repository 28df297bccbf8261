package guard

import (
	"github.com/asynkron/protoactor-go/actor"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Bind sets the address of the actor system the guarded server delivers
// to (its system's Address once remote has started). Every target a peer
// names is readdressed to it: a peer reaches this system's actors, never
// another's through it. Remote would otherwise relay a message whose
// target spells another address, with this system's own certificate: to
// another node as this one, or, for this node's address spelled another
// way (localhost, the IP of a node listening on 0.0.0.0), to itself, over
// and over. Batches are refused until Bind is called.
func (g *Guard) Bind(addr string) { g.self.Store(&addr) }

// localize readdresses targets to the bound address.
func (g *Guard) localize(targets []*actor.PID) error {
	self := g.self.Load()
	if self == nil {
		return status.Error(codes.Unavailable, "the node is starting: retry")
	}
	for _, pid := range targets {
		pid.Address = *self
	}
	return nil
}
