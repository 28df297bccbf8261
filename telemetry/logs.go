package telemetry

import (
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/messages"
)

// turnLine logs a turn's end: Info when it completed, Warn otherwise.
func (t *Telemetry) turnLine(o *observation, p *messages.TurnTerminal) {
	ev := t.log.Info()
	if p.Kind != messages.TerminalCompleted {
		ev = t.log.Warn()
	}
	if !ev.Enabled() {
		return
	}
	ev = ev.Str("agent_id", o.agentID).Str("agent_kind", o.kind).Str("turn_id", p.TurnID).
		Uint64("turn_index", p.TurnIndex).Str("terminal", string(p.Kind)).Str("closure", string(p.Closure.Outcome)).
		Int64("duration_ms", p.DurationMS)
	if tt := o.turn; tt != nil {
		ev = ev.Int("rounds", tt.rounds).Int("tools", tt.tools).Uint64("input_tokens", tt.tokensIn).Uint64("output_tokens", tt.tokensOut)
	}
	withTrace(ev, o.turn).Msg("turn ended")
}

// failureLine logs a runtime error with its category, code and hint.
func (t *Telemetry) failureLine(o *observation, p messages.RuntimeError) {
	ev := t.log.Warn()
	if !ev.Enabled() {
		return
	}
	f := p.Failure
	ev = ev.Str("agent_id", o.agentID).Str("category", string(f.Category)).Str("code", f.Code).
		Str("hint", t.secrets.Redact(orDefault(f.Summary, f.Message)))
	if p.TurnID != "" {
		ev = ev.Str("turn_id", p.TurnID)
	}
	withTrace(ev, o.turn).Msg("runtime error")
}

// statusLine logs an agent's lifecycle change: Debug for the moves
// between idle and running every turn makes (the turn line says more),
// Info for the others.
func (t *Telemetry) statusLine(o *observation, p messages.AgentStateChanged) {
	ev := t.log.Info()
	if routine(p.From) && routine(p.To) {
		ev = t.log.Debug()
	}
	if !ev.Enabled() {
		return
	}
	withTrace(ev.Str("agent_id", o.agentID).Str("from", string(p.From)).Str("to", string(p.To)).Str("reason", p.Reason), o.turn).
		Msg("agent status changed")
}

// withTrace adds the turn's trace and span ids, when it has them.
func withTrace(ev *zerolog.Event, tt *turnTrace) *zerolog.Event {
	if id := tt.traceID(); id != "" {
		ev = ev.Str("trace_id", id).Str("span_id", tt.spanID())
	}
	return ev
}

// routine reports the statuses every turn passes through.
func routine(s messages.AgentStatus) bool {
	return s == messages.StatusAwakeIdle || s == messages.StatusAwakeRunning
}
