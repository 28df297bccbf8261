package actors

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/persistence"
)

// ErrNotPlaced refuses activating an agent on a cluster node the cluster
// did not place it on: its requests go to the node it is placed on.
var ErrNotPlaced = errors.New("agent is not placed on this node: the cluster serves it on another node; send the request through the cluster")

// placement, in a cluster (RequirePlacement), lists the agents placed on
// this node (Claim): only they, and their private children through them,
// are activated here. A local request, timer or recovery for any other
// agent is refused with ErrNotPlaced instead of activating a second copy
// that would fence out the one the cluster placed.
type placement struct {
	mu       sync.Mutex
	required bool
	placed   map[string]bool
}

// RequirePlacement makes this runtime activate only the agents placed on
// it with Claim (a cluster node's runtime). Call it before any request.
func (r *Runtime) RequirePlacement() {
	r.placed.mu.Lock()
	defer r.placed.mu.Unlock()
	r.placed.required = true
	r.placed.placed = make(map[string]bool)
}

// Release drops agent id's placement on this node (the cluster moved it):
// it is not activated here again until claimed.
func (r *Runtime) Release(id string) {
	r.placed.mu.Lock()
	defer r.placed.mu.Unlock()
	delete(r.placed.placed, id)
}

// Place records that the cluster placed agent id here, without
// activating it (its first request does): even an agent whose activation
// here was fenced out before is activated here again.
func (r *Runtime) Place(id string) {
	r.fenced.clear(id)
	r.placed.mu.Lock()
	defer r.placed.mu.Unlock()
	if r.placed.required {
		r.placed.placed[id] = true
	}
}

// placedErr refuses activating agent id here when the cluster placed it
// elsewhere. A private child is activated by its parent's activation, so
// its family's root decides.
func (r *Runtime) placedErr(id string) error {
	r.placed.mu.Lock()
	required := r.placed.required
	r.placed.mu.Unlock()
	if !required {
		return nil
	}
	root := r.PlacementKey(id)
	r.placed.mu.Lock()
	defer r.placed.mu.Unlock()
	if r.placed.placed[root] {
		return nil
	}
	return fmt.Errorf("agent %s: %w", id, ErrNotPlaced)
}

// PlacementKey is the id the cluster places agent id by: its own, or for
// a private child its family's root, whose activation runs it.
func (r *Runtime) PlacementKey(id string) string {
	seen := map[string]bool{id: true}
	for {
		parent := r.parentOf(id)
		if parent == "" || seen[parent] {
			return id
		}
		seen[parent] = true
		id = parent
	}
}

// elsewhereInfo describes, for a listing, an agent active on another
// cluster node without activating it here: from its last published header
// or snapshot even when the journal moved past them (the agent's node
// knows the rest), or by its id alone.
func (r *Runtime) elsewhereInfo(ctx context.Context, id string) agentstate.AgentInfo {
	if hs, ok := r.deps.Store.(persistence.HeaderStore); ok {
		if h, found, err := hs.LoadHeader(ctx, id); err == nil && found {
			if _, in, err := agentstate.ReadStreamHeader(h.Data); err == nil {
				agentstate.ApplyBudgetDefault(&in, r.deps.DefaultTokenBudget)
				return in
			}
		}
	}
	if snap, ok, err := r.deps.Store.LoadSnapshot(ctx, id, persistence.LatestSnapshot()); err == nil && ok {
		if in, ok, err := agentstate.SnapshotInfo(snap.Data); err == nil && ok {
			agentstate.ApplyBudgetDefault(&in, r.deps.DefaultTokenBudget)
			return in
		}
	}
	return agentstate.AgentInfo{ID: id}
}
