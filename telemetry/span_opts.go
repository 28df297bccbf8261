package telemetry

import (
	"time"

	"go.opentelemetry.io/otel/trace"
)

// spanOpts are a turn's span options, reused for each span it starts and
// ends. Given to the tracer's interface methods, a variadic slice escapes
// to the heap at every call, and so does each trace.WithTimestamp (a time
// boxed in an interface): two allocations a Start or End, 16 a turn of
// two model rounds and a tool call. Here the slices are the turn's, and
// a timestamp is boxed once for the spans that start or end at the same
// time (most of a batch's).
type spanOpts struct {
	start [3]trace.SpanStartOption
	end   [1]trace.SpanEndOption
	at    time.Time
	atOpt trace.SpanEventOption // trace.WithTimestamp(at); nil until used
}

// stamp is the timestamp option of at.
func (so *spanOpts) stamp(at time.Time) trace.SpanEventOption {
	if so.atOpt == nil || !so.at.Equal(at) {
		so.at, so.atOpt = at, trace.WithTimestamp(at)
	}
	return so.atOpt
}

// starting is the options of a span of kind starting at at, with more
// (at most one).
func (so *spanOpts) starting(at time.Time, kind trace.SpanStartOption, more ...trace.SpanStartOption) []trace.SpanStartOption {
	so.start[0], so.start[1] = so.stamp(at), kind
	n := 2 + copy(so.start[2:], more)
	return so.start[:n]
}

// ending is the options of a span ending at at.
func (so *spanOpts) ending(at time.Time) []trace.SpanEndOption {
	so.end[0] = so.stamp(at)
	return so.end[:1]
}
