package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/trace"
)

// OpenTurn is an agent's turn in flight as its state has it: what the
// events of a batch may not say. A zero OpenTurn says nothing.
type OpenTurn struct {
	ID        string
	MessageID string
	Index     uint64
	// TraceID and SpanID are the trace and invoke_agent span the turn's
	// start journaled (message_processing_started), hex; empty when the
	// turn was not traced.
	TraceID, SpanID string
	// Input, set only when the telemetry CapturesContent and the batch
	// records a model round, is the latest conversation the round's model
	// call was sent (at most MaxInputMessages, oldest first), for its chat
	// span's gen_ai.input.messages.
	Input []ChatMessage
}

// parent is the context a resumed turn turnID's span starts under: the
// span its start journaled, so the resumed turn joins its trace; without
// one (another turn, an untraced start, ids that do not parse) a new
// trace.
func (ot OpenTurn) parent(turnID string) context.Context {
	if ot.ID != turnID || ot.TraceID == "" {
		return context.Background()
	}
	tid, err := trace.TraceIDFromHex(ot.TraceID)
	if err != nil {
		return context.Background()
	}
	sid, err := trace.SpanIDFromHex(ot.SpanID)
	if err != nil {
		return context.Background()
	}
	return trace.ContextWithRemoteSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, Remote: true}))
}
