package node

import (
	"context"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// clusterRuntime is the runtime as a cluster node's remote gateway sees
// it: a prompt is admitted at the node the cluster places its agent on.
// (The gateway's other agent requests are served by the control API,
// which forwards them: forward.)
type clusterRuntime struct {
	*actors.Runtime
	n *Node
}

// Admit admits env where its agent is placed.
func (r clusterRuntime) Admit(ctx context.Context, env messages.MessageEnvelope) (*actors.Admitted, error) {
	node := r.n.cl.node.Load()
	if node == nil {
		return nil, errNotJoined
	}
	return node.Admit(ctx, r.PlacementKey(env.AgentID), env)
}

// operatorRuntime is the runtime the remote gateway's operator calls.
func (n *Node) operatorRuntime() control.Runtime {
	if !n.clustered() {
		return n.rt
	}
	return clusterRuntime{Runtime: n.rt, n: n}
}
