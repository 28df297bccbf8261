package node

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/control/pgtriggers"
)

// openTriggers opens the node's trigger store: the file in its home for a
// single node; for a cluster node the registry in the cluster's
// PostgreSQL, so a trigger made at any node is known at every node, with
// the same URL, and outlives the node it was made at.
func (n *Node) openTriggers() (control.TriggerStore, error) {
	if !n.clustered() {
		t, err := control.OpenTriggers(filepath.Join(n.cfg.Home, "triggers"))
		if err != nil {
			return nil, err
		}
		return t, nil
	}
	hs, ok := n.store.(homeLockedStore)
	if !ok {
		return nil, invalid(fmt.Errorf("a cluster node needs the PostgreSQL journal (--journal postgres://...) for its triggers"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), journalOpenTimeout)
	defer cancel()
	r, err := pgtriggers.Open(ctx, hs.Pool())
	if err != nil {
		return nil, fmt.Errorf("open the triggers: %w", err)
	}
	return r, nil
}

// triggerAgent is the agent a trigger delivery (POST /triggers/{token})
// wakes, for the delivery to be served at the agent's node like its other
// requests. An unknown or revoked token, or a store that cannot answer,
// is served here, where the API answers it.
func (n *Node) triggerAgent(r *http.Request) (string, bool) {
	token, ok := strings.CutPrefix(r.URL.Path, "/triggers/")
	if !ok || n.triggers == nil {
		return "", false
	}
	tr, ok, err := n.triggers.Lookup(r.Context(), token)
	if err != nil || !ok {
		return "", false
	}
	return tr.AgentID, true
}
