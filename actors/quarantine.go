package actors

import (
	"context"
	"errors"
	"fmt"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// recordQuarantine journals, in agent m.id's own stream, the record of its
// quarantine as agentstate.Quarantine decides it from the agent's state
// (its status as its journal has it), appended after the last event of
// that state: fenced as the agent's own writes are, so a write that moved
// the stream meanwhile makes it read and decide again (once more). The
// telemetry counts the agent quarantined (holon_agents_quarantined). The
// agent's actor is gone by now; the next request activates it again,
// stopped. A journal that cannot be replayed (often what crashed the
// agent) still gets the record, unfenced. Then the operator is told.
func (r *Runtime) recordQuarantine(m *agentGaveUp) {
	log := r.deps.Log.With().Str("agent_id", m.id).Logger()
	if m.fencedOut {
		return // another node runs it: this one writes nothing more
	}
	// Counted before its record is durable, so a reader of the record finds
	// it counted; forgotten again if the record is not written.
	r.deps.Telemetry.AgentQuarantined(m.id, true)
	for range 2 {
		st, _, err := loadState(r.deps.Store, m.id, r.deps.Log)
		fenced := err == nil
		if !fenced {
			log.Warn().Err(err).Msg("quarantined agent's journal not replayed; its record is appended unfenced")
			st = &agentstate.State{ID: m.id}
		}
		env := agentstate.Env{AgentID: m.id, Now: r.deps.Clock.Now(), NewID: messages.NewID}
		b := agentstate.Quarantine(st, env, m.failures, m.reason)
		err = r.appendQuarantine(m.id, st.LastSeq, fenced, env, b)
		if errors.Is(err, persistence.ErrSeqConflict) {
			continue
		}
		if err != nil {
			log.Error().Err(err).Msg("quarantine record not written")
			r.deps.Telemetry.AgentQuarantined(m.id, false)
			return
		}
		log.Error().Int("failures", m.failures).Str("reason", m.reason).Msg("agent quarantined")
		for _, p := range b {
			if n, ok := p.(messages.OperatorNotificationRequested); ok {
				r.deliver(m.id, n.Notification)
			}
		}
		return
	}
	log.Error().Msg("quarantine record not written: the journal kept moving")
	r.deps.Telemetry.AgentQuarantined(m.id, false)
}

// appendQuarantine appends b to stream id as one batch, after seq after
// when fenced.
func (r *Runtime) appendQuarantine(id string, after uint64, fenced bool, env agentstate.Env, b agentstate.Batch) error {
	evs := make([]messages.Event, 0, len(b))
	for _, p := range b {
		ev, err := messages.NewEvent(id, env.Now, p)
		if err != nil {
			return fmt.Errorf("quarantine record %s: %w", p.EventType(), err)
		}
		evs = append(evs, ev)
	}
	var err error
	if fenced {
		_, err = r.deps.Store.AppendAfter(context.Background(), id, after, evs)
	} else {
		_, err = r.deps.Store.Append(context.Background(), id, evs)
	}
	return err
}
