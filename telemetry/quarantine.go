package telemetry

import (
	"slices"
	"sync"

	"github.com/holon-actors/holon-actors/messages"
)

// quarantineSet holds the agents quarantined after repeated crashes that
// this process saw, until each leaves its stopped status (resumed,
// archived). Bounded by the agents there are: one entry each.
type quarantineSet struct {
	mu  sync.Mutex
	ids map[string]struct{} // guarded by mu
}

func (q *quarantineSet) add(id string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ids == nil {
		q.ids = map[string]struct{}{}
	}
	q.ids[id] = struct{}{}
}

func (q *quarantineSet) remove(id string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.ids, id)
}

func (q *quarantineSet) list() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	ids := make([]string, 0, len(q.ids))
	for id := range q.ids {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// AgentQuarantined records that agentID's supervision quarantined it
// (stopped it after repeated crashes), or with on false that it did not
// after all (its record could not be written). It counts as quarantined
// until its status leaves stopped (resumed, archived).
func (t *Telemetry) AgentQuarantined(agentID string, on bool) {
	if t == nil {
		return
	}
	if on {
		t.quarantined.add(agentID)
	} else {
		t.quarantined.remove(agentID)
	}
}

// released forgets a quarantined agent whose status left stopped.
func (o *observation) released(p messages.AgentStateChanged) {
	if p.From == messages.StatusStopped && p.To != messages.StatusStopped {
		o.t.quarantined.remove(o.agentID)
	}
}

// Quarantined lists the agents quarantined after repeated crashes since
// this process started and not resumed since, sorted; nil for a nil
// Telemetry. The runtime's holon_agents_quarantined gauge counts them
// with the agents whose journal the store quarantined.
func (t *Telemetry) Quarantined() []string {
	if t == nil {
		return nil
	}
	return t.quarantined.list()
}
