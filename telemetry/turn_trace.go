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
// The SDK's spans are built by the telemetry's span queue
// (span_queue.go); the turn holds their ids and refs.
type turnTrace struct {
	id, messageID string
	start         time.Time
	rounds, tools int
	tokensIn      uint64
	tokensOut     uint64
	failure       string // the code of the turn's runtime error, if any

	q     *spanQueue // nil with tracing off
	ref   *spanRef   // the turn's span, queued
	ids   presetIDs  // the turn span's
	calls map[string]toolSpan
	// traceHex and spanHex are the span's ids in hex, made once for the
	// events and log lines that carry them.
	traceHex, spanHex string
	// What the turn span's attributes say besides its end.
	agentID, kind string
	index         uint64
	resumed       bool
}

// toolSpan is a tool call's open span and what its attributes say.
type toolSpan struct {
	ref       *spanRef
	ids       presetIDs
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

// attrs returns an empty buffer from the pool, for a span's attributes
// (the queue puts it back when the SDK has copied them).
func attrs() *attrBuf { return attrPool.Get().(*attrBuf) }

// child are the ids of a new span in the turn's trace.
func (tt *turnTrace) child() presetIDs {
	return presetIDs{trace: tt.ids.trace, span: newSpanID()}
}

// Span start options that never change, made once.
var (
	kindInternal trace.SpanStartOption = trace.WithSpanKind(trace.SpanKindInternal)
	kindClient   trace.SpanStartOption = trace.WithSpanKind(trace.SpanKindClient)
	spawnedBy                          = []attribute.KeyValue{attribute.String(attrLinkKind, "spawned_by")}
)

// startSpan opens the turn's invoke_agent span under parent (the span of
// the turn's start, for a resumed turn); link, when linked, is the
// parent's spawn call this child's first turn comes from. Its attributes
// are set when it ends (endTurn, end).
func (tt *turnTrace) startSpan(parent context.Context, q *spanQueue, agentID, kind string, index uint64, resumed bool, link trace.SpanContext, linked bool, at time.Time) {
	tt.agentID, tt.kind, tt.index, tt.resumed = agentID, kind, index, resumed
	tt.q, tt.ref = q, refPool.Get().(*spanRef)
	if psc := trace.SpanContextFromContext(parent); psc.TraceID().IsValid() {
		tt.ids = presetIDs{trace: psc.TraceID(), span: newSpanID()}
	} else {
		tt.ids = presetIDs{trace: newTraceID(), span: newSpanID()}
	}
	op := spanOp{kind: opStart, ref: tt.ref, parentCtx: parent, ids: tt.ids, name: opInvokeAgent + " " + agentID,
		spanKind: kindInternal, start: at}
	if linked {
		op.link = link
	}
	q.put(op)
	tt.traceHex, tt.spanHex = tt.ids.trace.String(), tt.ids.span.String()
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
	buf := attrs()
	kv := append(buf.kv,
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
		kv = append(kv, attribute.String(attrResponseID, p.ResponseID))
	}
	if len(tl.Attempts) > 1 {
		kv = append(kv, attribute.Int(attrAttempts, len(tl.Attempts)))
	}
	if fallback {
		kv = append(kv, attribute.String(attrFallback, tl.WinningModelRef))
	}
	if o.t.cfg.CaptureContent {
		if len(o.open.Input) > 0 {
			kv = append(kv, attribute.String(attrInputMessages, o.t.contentJSON(o.open.Input)))
		}
		if reply != nil {
			kv = append(kv, attribute.String(attrOutputMessages, o.t.contentJSON(outputMessages(reply, p.StopReason))))
		}
	}
	buf.kv = kv
	tt.q.put(spanOp{kind: opWhole, parent: tt.ref, ids: tt.child(), name: o.t.names.get(opChat, model), spanKind: kindClient,
		start: o.at.Add(-time.Duration(p.ProviderRoundMS) * time.Millisecond), end: o.at, attrs: buf})
}

// failedRound records a model round that failed as a chat span with the
// error; kind is the provider failure's kind.
func (tt *turnTrace) failedRound(t *Telemetry, model string, start, end time.Time, kind string) {
	buf := attrs()
	buf.kv = append(buf.kv, attribute.String(attrOperation, opChat), attribute.String(attrProvider, providerOf(model)),
		attribute.String(attrRequestModel, modelOf(model)), attribute.String(attrErrorType, kind))
	tt.q.put(spanOp{kind: opWhole, parent: tt.ref, ids: tt.child(), name: t.names.get(opChat, modelOf(model)), spanKind: kindClient,
		start: start, end: end, attrs: buf, status: codes.Error, statusMsg: kind})
}

// toolStarted opens a tool call's execute_tool span; its attributes are
// set when it ends (toolEnded, end).
func (tt *turnTrace) toolStarted(o *observation, p *messages.ToolCallStarted) {
	if tt.ref == nil {
		return
	}
	ts := toolSpan{ref: refPool.Get().(*spanRef), ids: tt.child(), name: p.ToolName, id: p.CallID, round: p.Round}
	if o.t.cfg.CaptureContent {
		ts.arguments = o.t.secrets.Redact(string(p.Arguments))
	}
	tt.q.put(spanOp{kind: opStart, ref: ts.ref, parent: tt.ref, ids: ts.ids, name: o.t.names.get(opExecuteTool, p.ToolName),
		spanKind: kindInternal, start: o.at})
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
	buf := attrs()
	kv := append(tt.toolAttrs(buf.kv, ts), attribute.String(attrToolStatus, string(p.Status)))
	if o.t.cfg.CaptureContent {
		kv = append(kv, attribute.String(attrToolResult, o.t.secrets.Redact(p.Receipt)))
	}
	op := spanOp{kind: opEnd, ref: ts.ref, end: o.at}
	if p.Status != messages.ToolOK {
		kv = append(kv, attribute.String(attrErrorType, string(p.Status)))
		op.status, op.statusMsg = codes.Error, string(p.Status)
	}
	buf.kv = kv
	op.attrs = buf
	tt.q.put(op)
	return spanContext(ts.ids)
}

// endTurn ends the turn's span (and any tool span left open) at at.
func (tt *turnTrace) endTurn(at time.Time, p *messages.TurnTerminal) {
	if tt.ref == nil {
		return
	}
	buf := attrs()
	kv := append(tt.turnAttrs(buf.kv), attribute.String(attrTerminal, string(p.Kind)), attribute.String(attrClosure, string(p.Closure.Outcome)))
	op := spanOp{kind: opEnd, ref: tt.ref, end: at, attrs: buf}
	if p.Kind != messages.TerminalCompleted {
		errType := orDefault(tt.failure, string(p.Kind))
		kv = append(kv, attribute.String(attrErrorType, errType))
		if tt.failure != "" {
			kv = append(kv, attribute.String(attrFailureCode, tt.failure))
		}
		op.status, op.statusMsg = codes.Error, errType
	}
	buf.kv = kv
	tt.endWith(op)
}

// end ends every span of the turn still open; reason, when set, is why.
func (tt *turnTrace) end(at time.Time, reason string) {
	if tt.ref == nil {
		return
	}
	buf := attrs()
	buf.kv = tt.turnAttrs(buf.kv)
	if reason != "" {
		buf.kv = append(buf.kv, attribute.String(attrErrorType, reason))
	}
	tt.endWith(spanOp{kind: opEnd, ref: tt.ref, end: at, attrs: buf})
}

// endWith ends the tool spans still open, then the turn's span (end, an
// opEnd of its ref). The turn holds no span after.
func (tt *turnTrace) endWith(end spanOp) {
	for id, ts := range tt.calls {
		buf := attrs()
		buf.kv = tt.toolAttrs(buf.kv, ts)
		tt.q.put(spanOp{kind: opEnd, ref: ts.ref, end: end.end, attrs: buf})
		delete(tt.calls, id)
	}
	tt.q.put(end)
	tt.ref = nil
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
