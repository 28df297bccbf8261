package node

import (
	"fmt"

	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/remote/gateway"
)

// startRemote serves remote clients when Config.Remote is set, through
// the same operator calls as the control API.
func (n *Node) startRemote() error {
	if n.cfg.Remote == nil {
		return nil
	}
	cfg := *n.cfg.Remote
	cfg.Log = n.cfg.Log
	cfg.Operator = control.Operator{Runtime: n.operatorRuntime(), Store: n.store, Clock: clockwork.NewRealClock(), API: n.srv.Handler()}
	g, err := gateway.Start(cfg)
	if err != nil {
		return err
	}
	n.remote = g
	return nil
}

// RemoteAddr is the address remote clients reach, "" when off.
func (n *Node) RemoteAddr() string {
	if n.remote == nil {
		return ""
	}
	return n.remote.Addr()
}

// stopRemote stops serving remote clients; a no-op when off or stopped.
func (n *Node) stopRemote() error {
	if n.remote == nil {
		return nil
	}
	g := n.remote
	n.remote = nil
	if err := g.Stop(); err != nil {
		return fmt.Errorf("stop serving remote clients: %w", err)
	}
	return nil
}
