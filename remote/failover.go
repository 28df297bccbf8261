package remote

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// Failover. A client of a cluster is given every node it may use
// (Options.Addr, then Options.Fallback): each node's gateway serves every
// agent, forwarding to the node the agent is placed on. When the node in
// use does not answer, the client moves to the next one; a retried
// request (Prompt's same message_id, Events from the last event yielded)
// then goes on there, so an event stream resumes without a gap.

// nodes lists the gateways of Addr and Fallback, in order.
func nodes(o Options) []*actor.PID {
	pids := []*actor.PID{actor.NewPID(o.Addr, remotepb.GatewayName)}
	for _, a := range o.Fallback {
		pids = append(pids, actor.NewPID(a, remotepb.GatewayName))
	}
	return pids
}

// current is the gateway in use.
func (c *Client) current() *actor.PID {
	return c.gateways[int(c.cur.Load())%len(c.gateways)]
}

// failover moves to the next node after gw did not answer, unless another
// request has moved on from gw already.
func (c *Client) failover(gw *actor.PID) {
	i := c.cur.Load()
	if c.gateways[int(i)%len(c.gateways)] == gw && len(c.gateways) > 1 {
		c.cur.CompareAndSwap(i, i+1)
	}
}

// Node is the address of the node the client uses now.
func (c *Client) Node() string { return c.current().Address }
