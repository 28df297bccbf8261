package actors

import (
	"context"
	"fmt"
	"sync"
)

// fencedAgents are the agents whose activation on this node was fenced
// out (activation.go): another node runs them. The runtime activates them
// again only when told the agent is placed here again (Claim): a request
// or a timer fire that reaches this node meanwhile (say, queued while it
// was frozen) is refused with ErrFencedOut instead of starting an
// activation that would take the agent back from its new node.
type fencedAgents struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (f *fencedAgents) mark(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ids == nil {
		f.ids = make(map[string]bool)
	}
	f.ids[id] = true
}

func (f *fencedAgents) has(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ids[id]
}

func (f *fencedAgents) clear(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.ids, id)
}

// fencedErr is the refusal of an agent fenced out on this node.
func (r *Runtime) fencedErr(id string) error {
	if r.fenced.has(id) {
		return fmt.Errorf("agent %s: %w", id, ErrFencedOut)
	}
	return nil
}

// Claim activates agent id on this runtime because the cluster placed it
// here, even if an earlier activation of it here was fenced out: the new
// activation journals agent_activated, which fences out wherever it ran
// since.
func (r *Runtime) Claim(ctx context.Context, id string) error {
	r.fenced.clear(id)
	r.place(id)
	return r.Activate(ctx, id)
}
