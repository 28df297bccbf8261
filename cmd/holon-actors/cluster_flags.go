package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/node"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// clusterFlags are the flags of `run` that make it one node of a cluster
// over a shared PostgreSQL journal.
type clusterFlags struct {
	ClusterListen    string        `name:"cluster-listen" help:"Run as a node of a cluster: its peers reach it at HOST:PORT (a specific address, not 0.0.0.0; needs --journal postgres://..., --node-name and --cluster-certs)." env:"HOLON_CLUSTER_LISTEN" placeholder:"HOST:PORT"`
	NodeName         string        `name:"node-name" help:"This node's name in the cluster, journaled where it activates an agent (unique per node)." env:"HOLON_NODE_NAME" placeholder:"NAME"`
	ClusterCerts     string        `name:"cluster-certs" help:"Directory with ca.crt and the node's member.crt and member.key (holon-actors ca issue --role member --out DIR); peers must present certificates of the same CA." env:"HOLON_CLUSTER_CERTS" type:"path" placeholder:"DIR"`
	ClusterAdvertise string        `name:"cluster-advertise" help:"Host peers dial instead of --cluster-listen's (NAT, containers)." env:"HOLON_CLUSTER_ADVERTISE" placeholder:"HOST"`
	ClusterName      string        `name:"cluster-name" help:"Name of the cluster; nodes of other clusters on the same database are ignored." env:"HOLON_CLUSTER_NAME" default:"holon" placeholder:"NAME"`
	ClusterLease     time.Duration `name:"cluster-lease" help:"Membership lease: a node that has not renewed it for this long is dropped and its agents move to the others." env:"HOLON_CLUSTER_LEASE" default:"2s" placeholder:"DURATION"`
}

// set reports whether any flag asks for a cluster node (the defaulted
// name and lease alone do not).
func (f clusterFlags) set() bool {
	return f.ClusterListen != "" || f.NodeName != "" || f.ClusterCerts != "" || f.ClusterAdvertise != ""
}

// config checks the flags and loads the member certificate: nil when the
// runtime is a single node.
func (f clusterFlags) config(journal string) (*node.ClusterConfig, error) {
	if !f.set() {
		return nil, nil
	}
	switch {
	case f.ClusterListen == "":
		return nil, usage(errors.New("--node-name, --cluster-certs and --cluster-advertise make a cluster node: give --cluster-listen HOST:PORT too"))
	case journal == "":
		return nil, usage(errors.New("--cluster-listen needs --journal postgres://USER@HOST:PORT/DB: the nodes of a cluster share one PostgreSQL journal"))
	case f.NodeName == "":
		return nil, usage(errors.New("--cluster-listen needs --node-name NAME, unique to this node"))
	case f.ClusterCerts == "":
		return nil, usage(errors.New("--cluster-listen needs --cluster-certs DIR: nodes talk with mutual TLS only " +
			"(holon-actors ca init, then ca issue --role member --name NODE --out DIR)"))
	case f.ClusterLease <= 0:
		return nil, usage(fmt.Errorf("--cluster-lease %v: give a positive duration (e.g. 2s)", f.ClusterLease))
	}
	creds, err := tlsca.Load(f.ClusterCerts, tlsca.RoleMember)
	if err != nil {
		return nil, usage(fmt.Errorf("--cluster-certs: %w", err))
	}
	cfg := &node.ClusterConfig{Name: f.NodeName, Cluster: f.ClusterName, Listen: f.ClusterListen,
		Advertise: f.ClusterAdvertise, TLS: creds, Lease: f.ClusterLease}
	if err := cfg.Validate(); err != nil {
		return nil, usage(err)
	}
	return cfg, nil
}

// unused refuses the cluster flags on a command that runs no node (once).
func (f clusterFlags) unused(command string) error {
	if f.set() {
		return usage(fmt.Errorf("%s runs no cluster node: drop --cluster-listen, --node-name, --cluster-certs and --cluster-advertise", command))
	}
	return nil
}
