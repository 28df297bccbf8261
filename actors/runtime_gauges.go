package actors

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/actors/mailbox"
	"github.com/holon-actors/holon-actors/telemetry"
)

// Gauges reports the runtime for the metrics scrape
// (telemetry.RuntimeView): the mailboxes' queues, the agents passivated
// and quarantined (quarantinedAgents), the tasks running and the timers pending. It lists the
// store's streams, so it costs one key scan; deleted agents are not
// counted as passivated.
func (r *Runtime) Gauges(ctx context.Context) (telemetry.RuntimeGauges, error) {
	g := telemetry.RuntimeGauges{QueueDepth: mailbox.Queued(), AgentsQuarantined: r.quarantinedAgents(ctx)}
	streams, err := r.deps.Store.Streams(ctx)
	if err != nil {
		return g, fmt.Errorf("runtime gauges: %w", err)
	}
	r.mu.RLock()
	dormant := make([]string, 0, len(streams))
	for _, id := range streams {
		if _, live := r.pids[id]; !live {
			dormant = append(dormant, id)
		}
	}
	r.mu.RUnlock()
	for _, id := range dormant {
		if !r.deleted.has(ctx, r, id) {
			g.AgentsPassivated++
		}
	}
	if h := r.wire.tasks; h != nil {
		g.TasksRunning = h.Running()
	}
	pending, err := r.PendingTimers(ctx)
	if err != nil {
		return g, fmt.Errorf("runtime gauges: %w", err)
	}
	g.TimersPending = len(pending)
	return g, nil
}

// quarantinedAgents counts the agents quarantined: those whose journal the
// store quarantined, and those whose supervision stopped them after
// repeated crashes (since this process started, until resumed; deleted
// ones aside), each once.
func (r *Runtime) quarantinedAgents(ctx context.Context) int {
	ids := map[string]bool{}
	for _, q := range r.deps.Store.Health().Quarantined {
		ids[q.Stream] = true
	}
	for _, id := range r.deps.Telemetry.Quarantined() {
		if !r.deleted.has(ctx, r, id) {
			ids[id] = true
		}
	}
	return len(ids)
}
