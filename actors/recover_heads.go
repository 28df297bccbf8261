package actors

import (
	"context"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/persistence"
)

// dormantByHeads returns the agents Recover can leave dormant on their
// stream headers (headerDormant: current, no open fact, journal not
// quarantined), read from every stream's head in one scan when the store
// lists heads (persistence.HeadLister), instead of two lookups and a
// health report per agent: at 10,000 agents those were most of a start's
// CPU after the store's open. nil when the store lists none; Recover then
// asks agent by agent, as it still does for the agents not in the set.
func (r *Runtime) dormantByHeads(ctx context.Context) map[string]bool {
	hl, ok := r.deps.Store.(persistence.HeadLister)
	if !ok {
		return nil
	}
	if _, ok := r.deps.Store.(persistence.HeaderStore); !ok {
		return nil
	}
	heads, err := hl.StreamHeads(ctx)
	if err != nil {
		return nil
	}
	bad := map[string]bool{}
	for _, q := range r.deps.Store.Health().Quarantined {
		bad[q.Stream] = true
	}
	out := make(map[string]bool, len(heads))
	for _, h := range heads {
		if !h.HasHeader || h.Header.Seq != h.Highest || bad[h.Stream] {
			continue
		}
		if facts, _, err := agentstate.ReadStreamHeader(h.Header.Data); err == nil && len(facts) == 0 {
			out[h.Stream] = true
		}
	}
	return out
}
