package node

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/holon-actors/holon-actors/cluster"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// ClusterConfig makes the node one member of a cluster over a shared
// PostgreSQL journal (package cluster): agents are placed on the members
// by id, and requests for an agent placed elsewhere are served there.
type ClusterConfig struct {
	// Name is the node's name, journaled where it activates an agent.
	Name string
	// Cluster names the cluster; "" is "holon".
	Cluster string
	// Listen is the HOST:PORT peers reach the node at; Advertise, when
	// set, the host they dial instead.
	Listen, Advertise string
	// TLS are the node's member credentials.
	TLS *tlsca.Credentials
	// Lease is the membership lease.
	Lease time.Duration
}

// Validate checks what can be checked before anything starts.
func (c ClusterConfig) Validate() error {
	if c.Name == "" {
		return invalid(errors.New("a cluster node needs a name (--node-name)"))
	}
	if err := cluster.CheckListen(c.Listen); err != nil {
		return invalid(fmt.Errorf("--cluster-listen: %w", err))
	}
	if c.TLS == nil {
		return invalid(errors.New("a cluster node needs its member certificate (--cluster-certs)"))
	}
	return nil
}

// clusterState is the node's membership: nil node for a single node.
type clusterState struct {
	node atomic.Pointer[cluster.Node]
	// lost gets the membership's loss (once; buffered).
	lost    chan error
	lostErr error
}

// clustered reports whether the node runs as a cluster member.
func (n *Node) clustered() bool { return n.cfg.Cluster != nil }

// nodeName is the runtime's node name: "" for a single node.
func (n *Node) nodeName() string {
	if n.cfg.Cluster == nil {
		return ""
	}
	return n.cfg.Cluster.Name
}

// checkCluster refuses a cluster node without a PostgreSQL journal.
func (n *Node) checkCluster() error {
	if n.cfg.Cluster == nil {
		return nil
	}
	if n.cfg.Journal == "" {
		return invalid(errors.New("--cluster-listen needs --journal postgres://USER@HOST:PORT/DB: the nodes of a cluster share one PostgreSQL journal"))
	}
	return n.cfg.Cluster.Validate()
}

// startCluster joins the cluster, once the runtime and the control API
// are up, and activates the default agent where the cluster places it.
func (n *Node) startCluster() error {
	if n.cfg.Cluster == nil {
		return nil
	}
	hs, ok := n.store.(homeLockedStore)
	if !ok {
		return invalid(errors.New("a cluster node needs the PostgreSQL journal (--journal postgres://...)"))
	}
	c := n.cfg.Cluster
	n.cl.lost = make(chan error, 1)
	node, err := cluster.Start(cluster.Config{Name: c.Name, Cluster: c.Cluster, Listen: c.Listen, Advertise: c.Advertise,
		TLS: c.TLS, Pool: hs.Pool(), Runtime: n.rt, Lease: c.Lease, Log: n.cfg.Log, API: n.srv.LocalHandler(),
		Lost: func(err error) {
			select {
			case n.cl.lost <- err:
			default:
			}
		}})
	if err != nil {
		return err
	}
	n.cl.node.Store(node)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if where, err := node.Activate(ctx, n.cfg.Agents.DefaultAgent); err != nil {
		n.cfg.Log.Warn().Err(err).Str("agent_id", n.cfg.Agents.DefaultAgent).Msg("the default agent is not active yet: its first request activates it")
	} else {
		n.cfg.Log.Info().Str("agent_id", n.cfg.Agents.DefaultAgent).Str("on", where).Msg("default agent active")
	}
	n.cfg.Log.Info().Str("node", c.Name).Str("addr", node.Addr()).Strs("members", node.Members()).Msg("joined the cluster")
	return nil
}

// lostCh is the channel the membership's loss arrives on (nil, never
// ready, for a single node).
func (n *Node) lostCh() <-chan error { return n.cl.lost }

// ClusterLost is the membership's loss that ended Wait, or nil: a node
// that lost it exits with an error.
func (n *Node) ClusterLost() error {
	if n.cl.lostErr == nil {
		return nil
	}
	return fmt.Errorf("this node lost its cluster membership (its agents moved to the other nodes): %w", n.cl.lostErr)
}

// leaveCluster leaves the cluster (gracefully unless the membership was
// lost) and stops the node's cluster actor system; a no-op when off.
func (n *Node) leaveCluster() {
	node := n.cl.node.Swap(nil)
	if node == nil {
		return
	}
	node.Close()
	n.cfg.Log.Info().Msg("left the cluster")
}

// startClusterRuntime finishes a cluster node's runtime: it activates
// only the agents the cluster places on it (their grains claim them), so
// it recovers none at start and leaves the default agent to the cluster
// (startCluster); timers of agents active nowhere are the due scanner's.
func (n *Node) startClusterRuntime() error {
	n.rt.RequirePlacement()
	n.registerGauges(0)
	n.startRetention()
	return n.startDueScan()
}

// errNotJoined is a due wake before the node joined its cluster (or
// after it left): the scanner tries again.
var errNotJoined = errors.New("this node is not in its cluster")

// wakeDueInCluster activates a due agent where the cluster places it
// (the root of a private child's family, whose activation runs it).
func (n *Node) wakeDueInCluster(ctx context.Context, id string) error {
	node := n.cl.node.Load()
	if node == nil {
		return errNotJoined
	}
	_, err := node.Activate(ctx, n.rt.PlacementKey(id))
	return err
}
