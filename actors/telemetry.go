package actors

import (
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/telemetry"
)

// observe hands a batch about to be journaled to the runtime's telemetry
// (AgentDeps.Telemetry), which returns it with the turn's trace id on the
// events that carry one. Without telemetry it is the batch itself. The
// turn in flight goes with it, so a turn resumed after a restart joins the
// trace its start journaled.
func (a *agent) observe(now time.Time, payloads []messages.Payload) []messages.Payload {
	open := telemetry.OpenTurn{Input: a.roundInput(payloads)}
	if t := a.state.Turn; t != nil {
		open.ID, open.MessageID, open.Index, open.TraceID, open.SpanID = t.ID, t.MessageID, t.Index, t.TraceID, t.SpanID
	}
	return a.deps.Telemetry.ObserveTurn(a.id, a.state.Kind, now, open, payloads)
}

// appended reports a journal append of evs that took d.
func (a *agent) appended(d time.Duration, evs []messages.Event) {
	m := a.deps.Telemetry.Metrics()
	if m == nil {
		return
	}
	n := 0
	for _, ev := range evs {
		n += len(ev.Payload)
	}
	m.JournalAppended(d, n)
}

// modelFailedTelemetry reports a model round that failed (m.err), which
// journals no provider_round_completed.
func (a *agent) modelFailedTelemetry(m *stepDone) {
	a.deps.Telemetry.ModelFailed(a.id, m.modelName, a.deps.Clock.Now(),
		time.Duration(m.roundMS)*time.Millisecond, string(providers.KindOf(m.err)))
}
