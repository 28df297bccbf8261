package telemetry

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/holon-actors/holon-actors/messages"
)

// turnTrace is one agent's open turn: its counters for the turn's log
// line and, with tracing on, its span and its tool calls' spans.
//
// The chat and tool spans carry gen_ai.conversation.id but not
// gen_ai.agent.id: the conventions name the agent on the invoke_agent span
// only, and here both are the agent's id (its journal is its
// conversation), so a second copy on every span would only be exported
// and decoded again.
//
// Spans are started bare and given their attributes in one call just
// before they end (the turn's and the tool calls') or right after they
// start (a chat span, which ends at once): the SDK then copies them once,
// into a slice of the right size, instead of growing it at each call.
type turnTrace struct {
	id, messageID string
	start         time.Time
	rounds, tools int
	tokensIn      uint64
	tokensOut     uint64
	failure       string // the code of the turn's runtime error, if any

	ctx   context.Context // carries span
	span  trace.Span      // nil with tracing off
	calls map[string]toolSpan
	// traceHex and spanHex are span's ids in hex, made once for the
	// events and log lines that carry them.
	traceHex, spanHex string
	// What the turn span's attributes say besides its end.
	agentID, kind string
	index         uint64
	resumed       bool
	// buf is reused for each span's attributes: the SDK copies them.
	buf []attribute.KeyValue
	// opts are reused for each span's options.
	opts spanOpts
}

// toolSpan is a tool call's open span and what its attributes say.
type toolSpan struct {
	span      trace.Span
	name, id  string
	round     uint32
	arguments string // redacted, when content is captured
}

// traceID is the turn's trace id, "" without a span.
func (tt *turnTrace) traceID() string {
	if tt == nil {
		return ""
	}
	return tt.traceHex
}

// spanID is the turn span's id, "" without a span.
func (tt *turnTrace) spanID() string {
	if tt == nil {
		return ""
	}
	return tt.spanHex
}

// attrs returns tt.buf emptied, for a span's attributes.
func (tt *turnTrace) attrs() []attribute.KeyValue {
	if tt.buf == nil {
		tt.buf = make([]attribute.KeyValue, 0, 20) // the most a span gets
	}
	return tt.buf[:0]
}

// Span start options that never change, made once.
var (
	kindInternal = trace.WithSpanKind(trace.SpanKindInternal)
	kindClient   = trace.WithSpanKind(trace.SpanKindClient)
	spawnedBy    = []attribute.KeyValue{attribute.String(attrLinkKind, "spawned_by")}
)

// startSpan opens the turn's invoke_agent span under parent (the span of
// the turn's start, for a resumed turn); link, when linked, is the
// parent's spawn call this child's first turn comes from. Its attributes
// are set when it ends (endTurn, end).
func (tt *turnTrace) startSpan(parent context.Context, tr trace.Tracer, agentID, kind string, index uint64, resumed bool, link trace.SpanContext, linked bool, at time.Time) {
	tt.agentID, tt.kind, tt.index, tt.resumed = agentID, kind, index, resumed
	name := opInvokeAgent + " " + agentID
	if linked {
		tt.ctx, tt.span = tr.Start(parent, name, tt.opts.starting(at, kindInternal,
			trace.WithLinks(trace.Link{SpanContext: link, Attributes: spawnedBy}))...)
	} else {
		tt.ctx, tt.span = tr.Start(parent, name, tt.opts.starting(at, kindInternal)...)
	}
	sc := tt.span.SpanContext()
	tt.traceHex, tt.spanHex = sc.TraceID().String(), sc.SpanID().String()
	if tt.calls == nil {
		tt.calls = map[string]toolSpan{}
	}
}

// turnAttrs appends the turn span's attributes known since its start.
func (tt *turnTrace) turnAttrs(attrs []attribute.KeyValue) []attribute.KeyValue {
	attrs = append(attrs,
		attribute.String(attrOperation, opInvokeAgent),
		attribute.String(attrAgentID, tt.agentID), attribute.String(attrAgentName, tt.agentID),
		attribute.String(attrConversationID, tt.agentID), attribute.String(attrAgentKind, tt.kind),
		attribute.String(attrTurnID, tt.id),
	)
	if tt.messageID != "" {
		attrs = append(attrs, attribute.String(attrMessageID, tt.messageID), attribute.Int64(attrTurnIndex, int64(tt.index)))
	}
	if tt.resumed {
		attrs = append(attrs, attribute.Bool(attrResumed, true))
	}
	return attrs
}

// chatSpan records a completed model round as a chat span ending at the
// observation's time.
func (tt *turnTrace) chatSpan(o *observation, p *messages.ProviderRoundCompleted, tl timeline, fallback bool, reply *messages.AssistantRoundRecorded) {
	requested := orDefault(tl.RequestedModelRef, p.Provider)
	model := modelOf(requested)
	attrs := append(tt.attrs(),
		attribute.String(attrOperation, opChat), attribute.String(attrProvider, providerOf(requested)),
		attribute.String(attrRequestModel, model), attribute.String(attrResponseModel, p.Model),
		o.t.finishReasons(p.StopReason),
		attribute.Int64(attrInputTokens, int64(p.TokenUsage.InputTokens)), attribute.Int64(attrOutputTokens, int64(p.TokenUsage.OutputTokens)),
		attribute.Int64(attrCacheReadTokens, int64(p.TokenUsage.CacheReadInputTokens)),
		attribute.Int64(attrCacheWriteTkns, int64(p.TokenUsage.CacheCreationInputTokens)),
		attribute.String(attrConversationID, o.agentID),
		attribute.Int(attrRound, int(p.Round)),
	)
	if p.ResponseID != "" {
		attrs = append(attrs, attribute.String(attrResponseID, p.ResponseID))
	}
	if len(tl.Attempts) > 1 {
		attrs = append(attrs, attribute.Int(attrAttempts, len(tl.Attempts)))
	}
	if fallback {
		attrs = append(attrs, attribute.String(attrFallback, tl.WinningModelRef))
	}
	if o.t.cfg.CaptureContent {
		if len(o.open.Input) > 0 {
			attrs = append(attrs, attribute.String(attrInputMessages, o.t.contentJSON(o.open.Input)))
		}
		if reply != nil {
			attrs = append(attrs, attribute.String(attrOutputMessages, o.t.contentJSON(outputMessages(reply, p.StopReason))))
		}
	}
	start := o.at.Add(-time.Duration(p.ProviderRoundMS) * time.Millisecond)
	_, s := o.t.tracer.Start(tt.ctx, o.t.names.get(opChat, model), tt.opts.starting(start, kindClient)...)
	s.SetAttributes(attrs...)
	s.End(tt.opts.ending(o.at)...)
	tt.buf = attrs[:0]
}

// failedRound records a model round that failed as a chat span with the
// error; kind is the provider failure's kind.
func (tt *turnTrace) failedRound(t *Telemetry, model string, start, end time.Time, kind string) {
	_, s := t.tracer.Start(tt.ctx, t.names.get(opChat, modelOf(model)), tt.opts.starting(start, kindClient)...)
	s.SetAttributes(attribute.String(attrOperation, opChat), attribute.String(attrProvider, providerOf(model)),
		attribute.String(attrRequestModel, modelOf(model)), attribute.String(attrErrorType, kind))
	s.SetStatus(codes.Error, kind)
	s.End(tt.opts.ending(end)...)
}

// toolStarted opens a tool call's execute_tool span; its attributes are
// set when it ends (toolEnded, end).
func (tt *turnTrace) toolStarted(o *observation, p *messages.ToolCallStarted) {
	if tt.span == nil {
		return
	}
	ts := toolSpan{name: p.ToolName, id: p.CallID, round: p.Round}
	if o.t.cfg.CaptureContent {
		ts.arguments = o.t.secrets.Redact(string(p.Arguments))
	}
	_, ts.span = o.t.tracer.Start(tt.ctx, o.t.names.get(opExecuteTool, p.ToolName), tt.opts.starting(o.at, kindInternal)...)
	tt.calls[p.CallID] = ts
}

// toolAttrs appends the attributes of tool call ts known since its start.
func (tt *turnTrace) toolAttrs(attrs []attribute.KeyValue, ts toolSpan) []attribute.KeyValue {
	attrs = append(attrs,
		attribute.String(attrOperation, opExecuteTool), attribute.String(attrToolName, ts.name),
		attribute.String(attrToolCallID, ts.id), attribute.String(attrToolType, "function"),
		attribute.String(attrConversationID, tt.agentID),
		attribute.Int(attrRound, int(ts.round)),
	)
	if ts.arguments != "" {
		attrs = append(attrs, attribute.String(attrToolArguments, ts.arguments))
	}
	return attrs
}

// toolEnded ends a tool call's span and returns its context.
func (tt *turnTrace) toolEnded(o *observation, p *messages.ToolExecuted) trace.SpanContext {
	ts, ok := tt.calls[p.CallID]
	if !ok {
		return trace.SpanContext{}
	}
	delete(tt.calls, p.CallID)
	attrs := append(tt.toolAttrs(tt.attrs(), ts), attribute.String(attrToolStatus, string(p.Status)))
	if o.t.cfg.CaptureContent {
		attrs = append(attrs, attribute.String(attrToolResult, o.t.secrets.Redact(p.Receipt)))
	}
	if p.Status != messages.ToolOK {
		attrs = append(attrs, attribute.String(attrErrorType, string(p.Status)))
		ts.span.SetStatus(codes.Error, string(p.Status))
	}
	ts.span.SetAttributes(attrs...)
	ts.span.End(tt.opts.ending(o.at)...)
	tt.buf = attrs[:0]
	return ts.span.SpanContext()
}

// endTurn ends the turn's span (and any tool span left open) at at.
func (tt *turnTrace) endTurn(at time.Time, p *messages.TurnTerminal) {
	if tt.span == nil {
		return
	}
	attrs := append(tt.turnAttrs(tt.attrs()), attribute.String(attrTerminal, string(p.Kind)), attribute.String(attrClosure, string(p.Closure.Outcome)))
	if p.Kind != messages.TerminalCompleted {
		errType := orDefault(tt.failure, string(p.Kind))
		attrs = append(attrs, attribute.String(attrErrorType, errType))
		if tt.failure != "" {
			attrs = append(attrs, attribute.String(attrFailureCode, tt.failure))
		}
		tt.span.SetStatus(codes.Error, errType)
	}
	tt.endWith(at, attrs)
}

// end ends every span of the turn still open; reason, when set, is why.
func (tt *turnTrace) end(at time.Time, reason string) {
	if tt.span == nil {
		return
	}
	attrs := tt.turnAttrs(tt.attrs())
	if reason != "" {
		attrs = append(attrs, attribute.String(attrErrorType, reason))
	}
	tt.endWith(at, attrs)
}

// endWith ends the tool spans still open, then the turn's span with
// attrs.
func (tt *turnTrace) endWith(at time.Time, attrs []attribute.KeyValue) {
	for id, ts := range tt.calls {
		ts.span.SetAttributes(tt.toolAttrs(nil, ts)...)
		ts.span.End(tt.opts.ending(at)...)
		delete(tt.calls, id)
	}
	tt.span.SetAttributes(attrs...)
	tt.span.End(tt.opts.ending(at)...)
	tt.buf = attrs[:0]
}

// outputMessages is the model's reply as the conventions' output
// messages: its text and tool calls (names and ids; arguments go to the
// tool spans).
func outputMessages(r *messages.AssistantRoundRecorded, finish string) []ChatMessage {
	parts := make([]MessagePart, 0, 1+len(r.ToolCalls))
	if r.Text != "" {
		parts = append(parts, MessagePart{Type: "text", Content: r.Text})
	}
	for _, c := range r.ToolCalls {
		parts = append(parts, MessagePart{Type: "tool_call", ID: c.ID, Name: c.Name})
	}
	return []ChatMessage{{Role: "assistant", Parts: parts, FinishReason: finish}}
}
