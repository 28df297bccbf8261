package actors

import (
	"context"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/persistence"
)

// Stream headers. Each time an agent settles (its advance loop finds
// nothing to do) it publishes its open facts and its listing as its
// stream's header, when the store keeps headers (persistence.HeaderStore).
// Boot recovery leaves an agent whose header is at its journal's last
// event and records no open fact dormant, as it does for one whose snapshot
// is, so after a crash only the agents with work are replayed; listings
// describe such an agent from its header instead of activating it.
//
// The header is published only after the events it describes are written
// (the store keeps order: it is never durable before them, deferred or not),
// and a reader trusts it only while its seq is the journal's highest, so a
// header a crash lost, or one older than the journal, only means a replay.

// publishHeader publishes the agent's header unless the store keeps none or
// the last one published is current.
func (a *agent) publishHeader() {
	hs, ok := a.deps.Store.(persistence.HeaderStore)
	if !ok || a.state == nil || a.state.LastSeq == 0 || a.state.LastSeq == a.headerSeq {
		return
	}
	data, err := a.state.StreamHeader(a.deps.Secrets.RedactBytes)
	if err == nil {
		err = hs.PublishHeader(a.id, persistence.Header{Seq: a.state.LastSeq, Data: data,
			Due: a.state.NextDue(a.deps.Clock.Now())})
	}
	if err != nil {
		// Only a longer recovery: the journal stays the truth.
		a.deps.Log.Debug().Err(err).Str("agent_id", a.id).Uint64("seq", a.state.LastSeq).Msg("stream header not published")
		return
	}
	a.headerSeq = a.state.LastSeq
}

// streamHeader returns agent id's open facts and info from its stream
// header; ok is false unless the store keeps headers and id's is readable
// and at its journal's highest seq (and the journal is not quarantined).
func (r *Runtime) streamHeader(ctx context.Context, id string) (facts []agentstate.OpenFact, in agentstate.AgentInfo, ok bool) {
	hs, can := r.deps.Store.(persistence.HeaderStore)
	if !can {
		return nil, in, false
	}
	if _, bad := r.storeQuarantine(id); bad {
		return nil, in, false
	}
	h, found, err := hs.LoadHeader(ctx, id)
	if err != nil || !found {
		return nil, in, false
	}
	if high, err := r.deps.Store.HighestSeq(ctx, id); err != nil || high != h.Seq {
		return nil, in, false
	}
	facts, in, err = agentstate.ReadStreamHeader(h.Data)
	return facts, in, err == nil
}

// headerDormant reports whether agent id's stream header lets it stay
// dormant after a restart: current, with no open fact.
func (r *Runtime) headerDormant(ctx context.Context, id string) bool {
	facts, _, ok := r.streamHeader(ctx, id)
	return ok && len(facts) == 0
}
