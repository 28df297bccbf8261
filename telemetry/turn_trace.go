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
type turnTrace struct {
	id, messageID string
	start         time.Time
	rounds, tools int
	tokensIn      uint64
	tokensOut     uint64
	failure       string // the code of the turn's runtime error, if any

	ctx   context.Context // carries span
	span  trace.Span      // nil with tracing off
	calls map[string]trace.Span
}

// traceID is the turn's trace id, "" without a span.
func (tt *turnTrace) traceID() string {
	if tt == nil || tt.span == nil {
		return ""
	}
	return tt.span.SpanContext().TraceID().String()
}

// spanID is the turn span's id, "" without a span.
func (tt *turnTrace) spanID() string {
	if tt == nil || tt.span == nil {
		return ""
	}
	return tt.span.SpanContext().SpanID().String()
}

// startSpan opens the turn's invoke_agent span under parent (the span of
// the turn's start, for a resumed turn); link, when linked, is the
// parent's spawn call this child's first turn comes from.
func (tt *turnTrace) startSpan(parent context.Context, tr trace.Tracer, agentID, kind string, index uint64, resumed bool, link trace.SpanContext, linked bool, at time.Time) {
	attrs := make([]attribute.KeyValue, 0, 9) // sized once: the most a turn span gets
	attrs = append(attrs,
		attribute.String(attrOperation, opInvokeAgent),
		attribute.String(attrAgentID, agentID), attribute.String(attrAgentName, agentID),
		attribute.String(attrConversationID, agentID), attribute.String(attrAgentKind, kind),
		attribute.String(attrTurnID, tt.id),
	)
	if tt.messageID != "" {
		attrs = append(attrs, attribute.String(attrMessageID, tt.messageID), attribute.Int64(attrTurnIndex, int64(index)))
	}
	if resumed {
		attrs = append(attrs, attribute.Bool(attrResumed, true))
	}
	opts := []trace.SpanStartOption{trace.WithTimestamp(at), trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...)}
	if linked {
		opts = append(opts, trace.WithLinks(trace.Link{SpanContext: link, Attributes: []attribute.KeyValue{attribute.String(attrLinkKind, "spawned_by")}}))
	}
	tt.ctx, tt.span = tr.Start(parent, opInvokeAgent+" "+agentID, opts...)
	tt.calls = map[string]trace.Span{}
}

// chatSpan records a completed model round as a chat span ending at the
// observation's time.
func (tt *turnTrace) chatSpan(o *observation, p messages.ProviderRoundCompleted, tl timeline, fallback bool, reply *messages.AssistantRoundRecorded) {
	requested := orDefault(tl.RequestedModelRef, p.Provider)
	attrs := make([]attribute.KeyValue, 0, 16) // sized once: the most a chat span gets
	attrs = append(attrs,
		attribute.String(attrOperation, opChat), attribute.String(attrProvider, providerOf(requested)),
		attribute.String(attrRequestModel, modelOf(requested)), attribute.String(attrResponseModel, p.Model),
		attribute.StringSlice(attrFinishReasons, []string{p.StopReason}),
		attribute.Int64(attrInputTokens, int64(p.TokenUsage.InputTokens)), attribute.Int64(attrOutputTokens, int64(p.TokenUsage.OutputTokens)),
		attribute.Int64(attrCacheReadTokens, int64(p.TokenUsage.CacheReadInputTokens)),
		attribute.Int64(attrCacheWriteTkns, int64(p.TokenUsage.CacheCreationInputTokens)),
		attribute.String(attrAgentID, o.agentID), attribute.String(attrConversationID, o.agentID),
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
	_, s := o.t.tracer.Start(tt.ctx, opChat+" "+modelOf(requested), trace.WithTimestamp(start),
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	s.End(trace.WithTimestamp(o.at))
}

// failedRound records a model round that failed as a chat span with the
// error; kind is the provider failure's kind.
func (tt *turnTrace) failedRound(tr trace.Tracer, model string, start, end time.Time, kind string) {
	_, s := tr.Start(tt.ctx, opChat+" "+modelOf(model), trace.WithTimestamp(start), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String(attrOperation, opChat), attribute.String(attrProvider, providerOf(model)),
			attribute.String(attrRequestModel, modelOf(model)), attribute.String(attrErrorType, kind)))
	s.SetStatus(codes.Error, kind)
	s.End(trace.WithTimestamp(end))
}

// toolStarted opens a tool call's execute_tool span.
func (tt *turnTrace) toolStarted(o *observation, p messages.ToolCallStarted) {
	if tt.span == nil {
		return
	}
	attrs := make([]attribute.KeyValue, 0, 8) // sized once: the most a tool span gets
	attrs = append(attrs,
		attribute.String(attrOperation, opExecuteTool), attribute.String(attrToolName, p.ToolName),
		attribute.String(attrToolCallID, p.CallID), attribute.String(attrToolType, "function"),
		attribute.String(attrAgentID, o.agentID), attribute.String(attrConversationID, o.agentID),
		attribute.Int(attrRound, int(p.Round)),
	)
	if o.t.cfg.CaptureContent {
		attrs = append(attrs, attribute.String(attrToolArguments, o.t.secrets.Redact(string(p.Arguments))))
	}
	_, s := o.t.tracer.Start(tt.ctx, opExecuteTool+" "+p.ToolName, trace.WithTimestamp(o.at),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	tt.calls[p.CallID] = s
}

// toolEnded ends a tool call's span and returns its context.
func (tt *turnTrace) toolEnded(o *observation, p messages.ToolExecuted) trace.SpanContext {
	s, ok := tt.calls[p.CallID]
	if !ok {
		return trace.SpanContext{}
	}
	delete(tt.calls, p.CallID)
	s.SetAttributes(attribute.String(attrToolStatus, string(p.Status)))
	if o.t.cfg.CaptureContent {
		s.SetAttributes(attribute.String(attrToolResult, o.t.secrets.Redact(p.Receipt)))
	}
	if p.Status != messages.ToolOK {
		s.SetAttributes(attribute.String(attrErrorType, string(p.Status)))
		s.SetStatus(codes.Error, string(p.Status))
	}
	s.End(trace.WithTimestamp(o.at))
	return s.SpanContext()
}

// endTurn ends the turn's span (and any tool span left open) at at.
func (tt *turnTrace) endTurn(at time.Time, p messages.TurnTerminal) {
	if tt.span == nil {
		return
	}
	tt.span.SetAttributes(attribute.String(attrTerminal, string(p.Kind)), attribute.String(attrClosure, string(p.Closure.Outcome)))
	if p.Kind != messages.TerminalCompleted {
		errType := orDefault(tt.failure, string(p.Kind))
		tt.span.SetAttributes(attribute.String(attrErrorType, errType))
		if tt.failure != "" {
			tt.span.SetAttributes(attribute.String(attrFailureCode, tt.failure))
		}
		tt.span.SetStatus(codes.Error, errType)
	}
	tt.end(at, "")
}

// end ends every span of the turn still open; reason, when set, is why.
func (tt *turnTrace) end(at time.Time, reason string) {
	if tt.span == nil {
		return
	}
	for id, s := range tt.calls {
		s.End(trace.WithTimestamp(at))
		delete(tt.calls, id)
	}
	if reason != "" {
		tt.span.SetAttributes(attribute.String(attrErrorType, reason))
	}
	tt.span.End(trace.WithTimestamp(at))
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
