package actors

import (
	"errors"
	"fmt"
	"sync"
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

// place records that the cluster placed agent id here.
func (r *Runtime) place(id string) {
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
