package telemetry

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/holon-actors/holon-actors/messages"
)

// observation is one Observe call: one agent's batch.
type observation struct {
	t       *Telemetry
	agentID string
	kind    string
	at      time.Time
	turn    *turnTrace // the agent's open turn, nil between turns
	open    OpenTurn   // the turn in flight as the agent's state has it
	// lastTool is the span of the tool call the batch ended last: the
	// spawn call a child_agent task of the same batch comes from.
	lastTool trace.SpanContext
}

// payload records p (rest is what follows it in the batch) and, with
// tracing on, returns it with the turn's trace id when it carries one;
// otherwise nil (no copy is made).
//
// Each kind of event has its own method, given p as the interface: one
// switch binding every kind's value would give payload a frame of all of
// them (1.3 KB), deepening the agent's stack at every batch and making
// the runtime grow it (a copy of the whole stack) more often.
func (o *observation) payload(p messages.Payload, rest []messages.Payload) messages.Payload {
	switch p.(type) {
	case messages.MessageProcessingStarted:
		return o.processingStarted(p)
	case messages.ProviderRoundCompleted:
		return o.providerRound(p, rest)
	case messages.ToolCallStarted:
		return o.toolCallStarted(p)
	case messages.ToolExecuted:
		return o.toolCallEnded(p)
	case messages.TaskStarted:
		o.taskStarted(p)
	case messages.ModelRetryScheduled:
		o.t.metrics.retries.Inc()
	case messages.RuntimeError:
		return o.failed(p)
	case messages.TurnTerminal:
		return o.terminal(p)
	case messages.AgentStateChanged:
		o.statusChanged(p)
	}
	return nil
}

// traced reports whether spans are built.
func (o *observation) traced() bool { return o.t.tracer != nil }

func (o *observation) processingStarted(v messages.Payload) messages.Payload {
	p := v.(messages.MessageProcessingStarted)
	if o.turn == nil || o.turn.id != p.TurnID { // else a message interjected into the turn
		o.turnStarted(p.TurnID, p.MessageID, p.TurnIndex, false)
	}
	if !o.traced() {
		return nil
	}
	p.TraceID, p.SpanID = o.turn.traceID(), o.turn.spanID()
	return p
}

func (o *observation) providerRound(v messages.Payload, rest []messages.Payload) messages.Payload {
	p := v.(messages.ProviderRoundCompleted)
	o.ensureTurn(p.TurnID)
	var reply *messages.AssistantRoundRecorded
	if o.t.cfg.CaptureContent {
		reply = assistantRound(rest, p.TurnID, p.Round)
	}
	o.roundCompleted(&p, reply)
	if !o.traced() {
		return nil
	}
	p.TraceID = o.turn.traceID()
	return p
}

func (o *observation) toolCallStarted(v messages.Payload) messages.Payload {
	p := v.(messages.ToolCallStarted)
	o.ensureTurn(p.TurnID)
	o.turn.toolStarted(o, &p)
	if !o.traced() {
		return nil
	}
	p.TraceID = o.turn.traceID()
	return p
}

func (o *observation) toolCallEnded(v messages.Payload) messages.Payload {
	p := v.(messages.ToolExecuted)
	o.ensureTurn(p.TurnID)
	o.toolExecuted(&p)
	if !o.traced() {
		return nil
	}
	p.TraceID = o.turn.traceID()
	return p
}

func (o *observation) failed(v messages.Payload) messages.Payload {
	p := v.(messages.RuntimeError)
	o.runtimeError(p)
	if !o.traced() {
		return nil
	}
	p.TraceID = o.turn.traceID()
	return p
}

func (o *observation) terminal(v messages.Payload) messages.Payload {
	p := v.(messages.TurnTerminal)
	o.ensureTurn(p.TurnID)
	if o.traced() {
		p.TraceID = o.turn.traceID()
	}
	o.turnEnded(&p)
	if !o.traced() {
		return nil
	}
	return p
}

// turnStarted opens the agent's turn; resumed marks a turn this process
// did not see start (it began before a restart).
func (o *observation) turnStarted(turnID, messageID string, index uint64, resumed bool) {
	if !resumed {
		o.t.metrics.byKind.get(o.kind).started.Inc()
		o.t.metrics.agentTurns(o.agentID)
	}
	tt := newTurnTrace(turnID, messageID, o.at)
	o.t.turns.Store(o.agentID, tt)
	o.turn = tt
	if o.t.tracer == nil {
		return
	}
	parent := context.Background()
	if resumed {
		parent = o.open.parent(turnID)
	}
	link, linked := o.t.spawnedBy(o.agentID)
	tt.startSpan(parent, o.t.spans, o.agentID, o.kind, index, resumed, link, linked, o.at)
}

// ensureTurn opens a resumed turn for an event of a turn this process
// has no record of (it started before a restart, or the agent's actor
// was restarted).
func (o *observation) ensureTurn(turnID string) {
	if o.turn == nil || o.turn.id != turnID {
		messageID, index := "", uint64(0)
		if o.open.ID == turnID {
			messageID, index = o.open.MessageID, o.open.Index
		}
		o.turnStarted(turnID, messageID, index, true)
	}
}

// roundCompleted records a model round: metrics, and its chat span.
func (o *observation) roundCompleted(p *messages.ProviderRoundCompleted, reply *messages.AssistantRoundRecorded) {
	m, tl := o.t.metrics, timelineOf(p.AttemptTimeline)
	provider := providerOf(orDefault(tl.RequestedModelRef, p.Provider))
	h := m.byProvider.get(provider)
	h.round.Observe(float64(p.ProviderRoundMS) / 1000)
	u := p.TokenUsage
	h.input.Add(float64(u.InputTokens))
	h.output.Add(float64(u.OutputTokens))
	h.cacheRead.Add(float64(u.CacheReadInputTokens))
	h.cacheCreation.Add(float64(u.CacheCreationInputTokens))
	if n := len(tl.Attempts); n > 1 {
		m.retries.Add(float64(n - 1))
	}
	fallback := tl.WinningModelRef != "" && tl.RequestedModelRef != "" && tl.WinningModelRef != tl.RequestedModelRef
	if fallback {
		m.fallbacks.WithLabelValues(provider).Inc()
	}
	o.turn.rounds++
	o.turn.tokensIn += u.InputTokens
	o.turn.tokensOut += u.OutputTokens
	if o.t.tracer != nil {
		o.turn.chatSpan(o, p, tl, fallback, reply)
	}
}

// toolExecuted records a tool call's end: metrics and its span's end.
func (o *observation) toolExecuted(p *messages.ToolExecuted) {
	tool := o.t.metrics.toolLabel(p.ToolName)
	h := o.t.metrics.byTool.get(tool)
	if p.Status == messages.ToolOK {
		h.ok.Inc()
	} else {
		o.t.metrics.toolCalls.WithLabelValues(tool, string(p.Status)).Inc()
	}
	h.duration.Observe(float64(p.DurationMS) / 1000)
	o.turn.tools++
	if o.t.tracer != nil {
		o.lastTool = o.turn.toolEnded(o, p)
	}
}

// taskStarted remembers the spawn call of a child agent's task, which the
// child's first turn links to.
func (o *observation) taskStarted(v messages.Payload) {
	p := v.(messages.TaskStarted)
	if o.t.tracer == nil || p.Kind != "child_agent_task" || !o.lastTool.IsValid() {
		return
	}
	var rec struct {
		ChildAgentID string `json:"child_agent_id"`
	}
	if json.Unmarshal(p.Record, &rec) != nil || rec.ChildAgentID == "" {
		return
	}
	o.t.spawned(rec.ChildAgentID, o.lastTool)
}

// runtimeError records a failure: its metric, its log line and, within a
// turn, the error its span ends with.
func (o *observation) runtimeError(p messages.RuntimeError) {
	f := p.Failure
	o.t.metrics.failures.WithLabelValues(o.kind, string(f.Category)).Inc()
	if o.turn != nil && (p.TurnID == "" || p.TurnID == o.turn.id) {
		o.turn.failure = f.Code
	}
	o.t.failureLine(o, p)
}

// turnEnded records a turn's end: metrics, its log line, its span's end.
func (o *observation) turnEnded(p *messages.TurnTerminal) {
	m := o.t.metrics
	closure := string(p.Closure.Outcome)
	if p.Kind == messages.TerminalCompleted {
		m.turnsCompleted.WithLabelValues(o.kind, closure).Inc()
	} else {
		m.turnsFailed.WithLabelValues(o.kind, string(p.Kind)).Inc()
	}
	m.byKind.get(o.kind).duration.Observe(float64(p.DurationMS) / 1000)
	o.t.turnLine(o, p)
	o.turn.endTurn(o.at, p)
	o.t.turns.Delete(o.agentID)
	o.turn.release()
	o.turn = nil
}

// statusChanged records an agent's lifecycle change.
func (o *observation) statusChanged(v messages.Payload) {
	p := v.(messages.AgentStateChanged)
	o.t.metrics.statusChanges.WithLabelValues(string(p.To)).Inc()
	o.released(p)
	o.t.statusLine(o, p)
}

// assistantRound finds the model's reply of round in rest (the same batch
// records it right after the round's metrics).
func assistantRound(rest []messages.Payload, turnID string, round uint32) *messages.AssistantRoundRecorded {
	for _, p := range rest {
		if a, ok := p.(messages.AssistantRoundRecorded); ok && a.TurnID == turnID && a.Round == round {
			return &a
		}
	}
	return nil
}

// timeline is what telemetry reads of a round's provider attempt
// timeline (providers.ProviderAttemptTimeline, kept as JSON in the event).
type timeline struct {
	Attempts          []json.RawMessage `json:"attempts"`
	RequestedModelRef string            `json:"requested_model_ref"`
	WinningModelRef   string            `json:"winning_model_ref"`
}

func timelineOf(raw json.RawMessage) timeline {
	if len(raw) == 0 {
		return timeline{}
	}
	var tl timeline
	_ = json.Unmarshal(raw, &tl) // a timeline we cannot read only loses detail
	return tl
}

// providerOf is the provider of a model ref ("openai/gpt-5" → openai).
func providerOf(ref string) string {
	if i := strings.IndexAny(ref, "/:"); i > 0 {
		return ref[:i]
	}
	return orDefault(ref, "unknown")
}

// modelOf is the model of a model ref ("openai/gpt-5" → gpt-5).
func modelOf(ref string) string {
	if i := strings.IndexAny(ref, "/:"); i > 0 {
		return ref[i+1:]
	}
	return ref
}
