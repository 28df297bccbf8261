package cluster

import (
	pacluster "github.com/asynkron/protoactor-go/cluster"
)

// OnMembersLeft calls f each time members left the cluster as this node
// sees it (died, lost their lease or left). f runs on the node's event
// stream: it must return at once (signal a goroutine of its own).
func (n *Node) OnMembersLeft(f func()) {
	n.sys.EventStream.Subscribe(func(evt any) {
		if t, ok := evt.(*pacluster.ClusterTopology); ok && len(t.Left) > 0 {
			f()
		}
	})
}
