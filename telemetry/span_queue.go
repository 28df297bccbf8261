package telemetry

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// The spans of a turn are built off the agent's goroutine. An agent
// observing a batch only decides what its spans are (their ids, names,
// times and attributes, in a spanOp) and queues that; one goroutine of
// the Telemetry (spanQueue.run) starts, fills and ends the SDK's spans in
// the order they were queued. Every span is given its start and end time
// explicitly, so a span built later is the span the agent would have
// built: same ids, parent, links, attributes, status and times. What the
// agent no longer pays is the SDK's work per span and the deeper stack
// it needed for it: with a fast model, a traced turn's wall time was up
// to a fifth longer for it.
//
// The ids are the agent's to make (a random trace id per turn, a random
// span id per span, as the SDK's generator makes them), because the turn's
// events carry them when they are journaled; the SDK is handed them by
// presetIDs, its IDGenerator.

// spanRef is a span that lasts across batches (a turn's, a tool call's):
// the agent holds the pointer and queues its start and end; only the
// queue's goroutine reads or sets its fields. It goes back to refPool
// once its end has been applied.
type spanRef struct {
	span trace.Span
	ctx  context.Context // carries span, for its children
}

var refPool = sync.Pool{New: func() any { return new(spanRef) }}

// attrBuf is a span's attributes on their way to the queue; pooled, it
// goes back once the SDK has copied them.
type attrBuf struct{ kv []attribute.KeyValue }

var attrPool = sync.Pool{New: func() any { return &attrBuf{kv: make([]attribute.KeyValue, 0, 20)} }} // 20: the most a span gets

// spanOpKind says what a spanOp does.
type spanOpKind uint8

const (
	opStart   spanOpKind = iota + 1 // start ref
	opEnd                           // set attrs and status on ref, and end it
	opWhole                         // start and end a span with no ref (a model round's)
	opBarrier                       // close done once everything before it is applied
)

// spanOp is one step of building a span, queued by an agent.
type spanOp struct {
	kind spanOpKind
	ref  *spanRef
	// parent is the span's parent span when it has one kept (the turn's);
	// else parentCtx (a resumed turn's journaled parent, or none).
	parent    *spanRef
	parentCtx context.Context
	ids       presetIDs
	name      string
	spanKind  trace.SpanStartOption
	start     time.Time
	end       time.Time
	link      trace.SpanContext // valid when the span links to a spawn call
	attrs     *attrBuf          // nil for none
	status    codes.Code
	statusMsg string
	done      chan struct{} // opBarrier
}

// spanQueue builds the spans agents queue, in order, on its goroutine;
// synchronous (inline set, tests with an in-memory exporter) it builds each
// as it is queued, under mu.
type spanQueue struct {
	tracer trace.Tracer
	ids    *idSource
	inline bool
	mu     sync.Mutex // serializes apply when inline
	ops    chan spanOp
	stop   chan struct{} // closed by close: ops queued after are dropped
	exited chan struct{} // closed when run returns
	opts   spanOpts      // the goroutine's own options buffer
	once   sync.Once
}

// spanQueueSize is how many span steps may wait (six a turn of two model
// rounds and a tool call); an agent queuing into a full queue waits.
const spanOpQueueSize = 16384

func newSpanQueue(tracer trace.Tracer, ids *idSource, inline bool) *spanQueue {
	q := &spanQueue{tracer: tracer, ids: ids, inline: inline, stop: make(chan struct{}), exited: make(chan struct{})}
	if inline {
		close(q.exited)
		return q
	}
	q.ops = make(chan spanOp, spanOpQueueSize)
	go q.run()
	return q
}

// run applies the queued ops until close.
func (q *spanQueue) run() {
	defer close(q.exited)
	for {
		select {
		case op := <-q.ops:
			q.apply(op)
		case <-q.stop:
			for { // what was queued before close still ends
				select {
				case op := <-q.ops:
					q.apply(op)
				default:
					return
				}
			}
		}
	}
}

// put queues op (applies it, when inline). After close it is dropped.
func (q *spanQueue) put(op spanOp) {
	if q.inline {
		q.mu.Lock()
		q.apply(op)
		q.mu.Unlock()
		return
	}
	select {
	case q.ops <- op:
	case <-q.stop:
		if op.attrs != nil {
			attrPool.Put(op.attrs)
		}
	}
}

// drain returns once every op queued before it is applied, or ctx ends.
func (q *spanQueue) drain(ctx context.Context) error {
	if q.inline {
		return nil
	}
	done := make(chan struct{})
	select {
	case q.ops <- spanOp{kind: opBarrier, done: done}:
	case <-q.stop:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// close applies what is queued and stops the goroutine, within ctx.
func (q *spanQueue) close(ctx context.Context) error {
	q.once.Do(func() { close(q.stop) })
	select {
	case <-q.exited:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// apply builds op's part of its span.
func (q *spanQueue) apply(op spanOp) {
	switch op.kind {
	case opBarrier:
		close(op.done)
	case opStart:
		op.ref.ctx, op.ref.span = q.startSpan(op)
	case opEnd:
		q.endSpan(op.ref.span, op)
		*op.ref = spanRef{}
		refPool.Put(op.ref)
	case opWhole:
		_, s := q.startSpan(op)
		q.endSpan(s, op)
	}
}

func (q *spanQueue) startSpan(op spanOp) (context.Context, trace.Span) {
	parent := op.parentCtx
	if op.parent != nil {
		parent = op.parent.ctx
	}
	if parent == nil {
		parent = context.Background()
	}
	q.ids.next = op.ids
	defer func() { q.ids.next = presetIDs{} }()
	if op.link.IsValid() {
		return q.tracer.Start(parent, op.name, q.opts.starting(op.start, op.spanKind,
			trace.WithLinks(trace.Link{SpanContext: op.link, Attributes: spawnedBy}))...)
	}
	return q.tracer.Start(parent, op.name, q.opts.starting(op.start, op.spanKind)...)
}

func (q *spanQueue) endSpan(s trace.Span, op spanOp) {
	if op.status != codes.Unset {
		s.SetStatus(op.status, op.statusMsg)
	}
	if op.attrs != nil {
		s.SetAttributes(op.attrs.kv...)
		clear(op.attrs.kv) // the strings are not kept alive in the pool
		op.attrs.kv = op.attrs.kv[:0]
		attrPool.Put(op.attrs)
	}
	s.End(q.opts.ending(op.end)...)
}

// presetIDs are the ids a span is to have; zero ones are made by the
// generator.
type presetIDs struct {
	trace trace.TraceID
	span  trace.SpanID
}

// idSource is the tracer provider's IDGenerator: it hands the SDK the ids
// the queue's op carries (next, set only by the goroutine applying ops),
// and makes random ones for a span started without.
type idSource struct {
	next presetIDs
}

func (s *idSource) NewIDs(context.Context) (trace.TraceID, trace.SpanID) {
	if s.next.trace.IsValid() && s.next.span.IsValid() {
		return s.next.trace, s.next.span
	}
	return newTraceID(), newSpanID()
}

func (s *idSource) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	if s.next.span.IsValid() {
		return s.next.span
	}
	return newSpanID()
}

// newTraceID and newSpanID are random, never zero ids, made without a
// lock (math/rand/v2's generator is per thread).
func newTraceID() trace.TraceID {
	var id trace.TraceID
	for !id.IsValid() {
		putUint64(id[:8], rand.Uint64())
		putUint64(id[8:], rand.Uint64())
	}
	return id
}

func newSpanID() trace.SpanID {
	var id trace.SpanID
	for !id.IsValid() {
		putUint64(id[:], rand.Uint64())
	}
	return id
}

func putUint64(b []byte, v uint64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}

// spanContext is the context of a span with ids, sampled, as the SDK
// makes it under its default sampler (every turn traced).
func spanContext(ids presetIDs) trace.SpanContext {
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: ids.trace, SpanID: ids.span, TraceFlags: trace.FlagsSampled})
}
