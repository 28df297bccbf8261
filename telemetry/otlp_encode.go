package telemetry

import (
	"math"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/encoding/protowire"
)

// otlpEncoder writes ReadOnlySpans as an OTLP ExportTraceServiceRequest
// (opentelemetry/proto/collector/trace/v1) straight into one byte slice,
// with no intermediate proto objects: the SDK's exporter builds a tree of
// them per span and attribute, and marshals it, which was most of what
// exporting a turn's spans cost. What it writes decodes to the messages
// the SDK's own transform builds for the same spans (otlp_encode_test.go
// holds it to that). The buffers are kept between requests; an encoder
// is used by one export at a time.
type otlpEncoder struct {
	buf    []byte
	groups []spanGroup
	order  []int // span indices in the order they are written
	gi     []int // each span's group
}

// spanGroup is the spans of one resource and instrumentation scope.
type spanGroup struct {
	res   *resource.Resource
	rKey  attribute.Distinct
	scope instrumentation.Scope
	n     int // spans in the group
	at    int // where its spans start in order
}

// Field numbers of the OTLP messages written (trace/v1, common/v1,
// resource/v1, collector/trace/v1).
const (
	fReqResourceSpans = 1

	fRSResource   = 1
	fRSScopeSpans = 2
	fRSSchemaURL  = 3

	fResAttributes = 1

	fSSScope     = 1
	fSSSpans     = 2
	fSSSchemaURL = 3

	fScopeName       = 1
	fScopeVersion    = 2
	fScopeAttributes = 3

	fSpanTraceID        = 1
	fSpanSpanID         = 2
	fSpanTraceState     = 3
	fSpanParentSpanID   = 4
	fSpanName           = 5
	fSpanKind           = 6
	fSpanStart          = 7
	fSpanEnd            = 8
	fSpanAttributes     = 9
	fSpanDroppedAttrs   = 10
	fSpanEvents         = 11
	fSpanDroppedEvents  = 12
	fSpanLinks          = 13
	fSpanDroppedLinks   = 14
	fSpanStatus         = 15
	fSpanFlags          = 16
	fEventTime          = 1
	fEventName          = 2
	fEventAttributes    = 3
	fEventDroppedAttrs  = 4
	fLinkTraceID        = 1
	fLinkSpanID         = 2
	fLinkAttributes     = 4
	fLinkDroppedAttrs   = 5
	fLinkFlags          = 6
	fStatusMessage      = 2
	fStatusCode         = 3
	fKVKey              = 1
	fKVValue            = 2
	fAnyString          = 1
	fAnyBool            = 2
	fAnyInt             = 3
	fAnyDouble          = 4
	fAnyArray           = 5
	fArrayValues        = 1
	flagHasIsRemoteMask = 0x100 // SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK
	flagIsRemoteMask    = 0x200 // SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK
)

// encode returns the request carrying spans, in a buffer that is valid
// until the next call. Spans are grouped by resource and then by scope,
// each group in the order its first span comes; nil spans are skipped.
func (e *otlpEncoder) encode(spans []sdktrace.ReadOnlySpan) []byte {
	e.buf = e.buf[:0]
	e.group(spans)
	for i := 0; i < len(e.groups); {
		g := e.groups[i]
		rs := e.begin(fReqResourceSpans)
		if g.res != nil {
			r := e.begin(fRSResource)
			it := g.res.Iter()
			for it.Next() {
				e.keyValue(fResAttributes, it.Attribute())
			}
			e.end(r)
		}
		j := i
		for ; j < len(e.groups) && e.groups[j].rKey == g.rKey; j++ {
			e.scopeSpans(spans, e.groups[j])
		}
		if g.res != nil {
			e.str(fRSSchemaURL, g.res.SchemaURL())
		}
		e.end(rs)
		i = j
	}
	return e.buf
}

// group fills e.groups (those of one resource next to each other) and
// e.order (each group's spans together, in their order).
func (e *otlpEncoder) group(spans []sdktrace.ReadOnlySpan) {
	e.groups = e.groups[:0]
	gi := e.gi[:0]
	defer func() { e.gi = gi }()
	last := -1
	for _, s := range spans {
		if s == nil {
			gi = append(gi, -1)
			continue
		}
		res, sc := s.Resource(), s.InstrumentationScope()
		rKey := res.Equivalent()
		if last < 0 || e.groups[last].rKey != rKey || e.groups[last].scope != sc {
			last = e.findGroup(res, rKey, sc)
		}
		e.groups[last].n++
		gi = append(gi, last)
	}
	// Keep the groups of one resource together, first seen first.
	if len(e.groups) > 1 {
		ordered := make([]spanGroup, 0, len(e.groups))
		remap := make([]int, len(e.groups))
		for i, g := range e.groups {
			if g.n < 0 {
				continue
			}
			for j := i; j < len(e.groups); j++ {
				if e.groups[j].n >= 0 && e.groups[j].rKey == g.rKey {
					remap[j] = len(ordered)
					ordered = append(ordered, e.groups[j])
					e.groups[j].n = -1
				}
			}
		}
		e.groups = append(e.groups[:0], ordered...)
		for i, g := range gi {
			if g >= 0 {
				gi[i] = remap[g]
			}
		}
	}
	at := 0
	for i := range e.groups {
		e.groups[i].at, at = at, at+e.groups[i].n
	}
	e.order = e.order[:0]
	for range at {
		e.order = append(e.order, 0)
	}
	next := make([]int, len(e.groups))
	for i, g := range gi {
		if g >= 0 {
			e.order[e.groups[g].at+next[g]] = i
			next[g]++
		}
	}
}

func (e *otlpEncoder) findGroup(res *resource.Resource, rKey attribute.Distinct, sc instrumentation.Scope) int {
	for i, g := range e.groups {
		if g.rKey == rKey && g.scope == sc {
			return i
		}
	}
	e.groups = append(e.groups, spanGroup{res: res, rKey: rKey, scope: sc})
	return len(e.groups) - 1
}

func (e *otlpEncoder) scopeSpans(spans []sdktrace.ReadOnlySpan, g spanGroup) {
	ss := e.begin(fRSScopeSpans)
	if g.scope != (instrumentation.Scope{}) {
		sc := e.begin(fSSScope)
		e.str(fScopeName, g.scope.Name)
		e.str(fScopeVersion, g.scope.Version)
		it := g.scope.Attributes.Iter()
		for it.Next() {
			e.keyValue(fScopeAttributes, it.Attribute())
		}
		e.end(sc)
	}
	for _, i := range e.order[g.at : g.at+g.n] {
		e.span(spans[i])
	}
	e.str(fSSSchemaURL, g.scope.SchemaURL)
	e.end(ss)
}

func (e *otlpEncoder) span(s sdktrace.ReadOnlySpan) {
	sp := e.begin(fSSSpans)
	sc := s.SpanContext()
	tid, sid := sc.TraceID(), sc.SpanID()
	e.bytes(fSpanTraceID, tid[:])
	e.bytes(fSpanSpanID, sid[:])
	if ts := sc.TraceState(); ts.Len() > 0 {
		e.str(fSpanTraceState, ts.String())
	}
	parent := s.Parent()
	if psid := parent.SpanID(); psid.IsValid() {
		e.bytes(fSpanParentSpanID, psid[:])
	}
	e.str(fSpanName, s.Name())
	e.uint(fSpanKind, uint64(otlpKind(s.SpanKind())))
	e.fixed64(fSpanStart, unixNano(s.StartTime().UnixNano()))
	e.fixed64(fSpanEnd, unixNano(s.EndTime().UnixNano()))
	for _, kv := range s.Attributes() {
		e.keyValue(fSpanAttributes, kv)
	}
	e.uint(fSpanDroppedAttrs, clampCount(s.DroppedAttributes()))
	for _, ev := range s.Events() {
		m := e.begin(fSpanEvents)
		e.fixed64(fEventTime, unixNano(ev.Time.UnixNano()))
		e.str(fEventName, ev.Name)
		for _, kv := range ev.Attributes {
			e.keyValue(fEventAttributes, kv)
		}
		e.uint(fEventDroppedAttrs, clampCount(ev.DroppedAttributeCount))
		e.end(m)
	}
	e.uint(fSpanDroppedEvents, clampCount(s.DroppedEvents()))
	for _, l := range s.Links() {
		m := e.begin(fSpanLinks)
		ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
		e.bytes(fLinkTraceID, ltid[:])
		e.bytes(fLinkSpanID, lsid[:])
		for _, kv := range l.Attributes {
			e.keyValue(fLinkAttributes, kv)
		}
		e.uint(fLinkDroppedAttrs, clampCount(l.DroppedAttributeCount))
		e.fixed32(fLinkFlags, spanFlags(l.SpanContext.TraceFlags(), l.SpanContext))
		e.end(m)
	}
	e.uint(fSpanDroppedLinks, clampCount(s.DroppedLinks()))
	st := s.Status()
	m := e.begin(fSpanStatus) // always present, as the SDK's transform sets it
	e.str(fStatusMessage, st.Description)
	e.uint(fStatusCode, uint64(otlpStatus(st.Code)))
	e.end(m)
	e.fixed32(fSpanFlags, spanFlags(sc.TraceFlags(), parent))
	e.end(sp)
}

// keyValue writes kv as a KeyValue in field f; a value of no known type
// is the string "INVALID", as the SDK's transform has it.
func (e *otlpEncoder) keyValue(f protowire.Number, kv attribute.KeyValue) {
	m := e.begin(f)
	e.str(fKVKey, string(kv.Key))
	v := e.begin(fKVValue)
	switch kv.Value.Type() {
	case attribute.BOOL:
		e.anyBool(kv.Value.AsBool())
	case attribute.INT64:
		e.anyInt(kv.Value.AsInt64())
	case attribute.FLOAT64:
		e.anyDouble(kv.Value.AsFloat64())
	case attribute.STRING:
		e.anyString(kv.Value.AsString())
	case attribute.BOOLSLICE:
		anyArray(e, kv.Value.AsBoolSlice(), e.anyBool)
	case attribute.INT64SLICE:
		anyArray(e, kv.Value.AsInt64Slice(), e.anyInt)
	case attribute.FLOAT64SLICE:
		anyArray(e, kv.Value.AsFloat64Slice(), e.anyDouble)
	case attribute.STRINGSLICE:
		anyArray(e, kv.Value.AsStringSlice(), e.anyString)
	default:
		e.anyString("INVALID")
	}
	e.end(v)
	e.end(m)
}

// The AnyValue oneof is written even when its value is the zero one: a
// set oneof is not an unset one.
// anyArray writes xs as an AnyValue's ArrayValue, each element by one.
func anyArray[T any](e *otlpEncoder, xs []T, one func(T)) {
	a := e.begin(fAnyArray)
	for _, x := range xs {
		el := e.begin(fArrayValues)
		one(x)
		e.end(el)
	}
	e.end(a)
}

func (e *otlpEncoder) anyString(s string) {
	e.buf = protowire.AppendTag(e.buf, fAnyString, protowire.BytesType)
	e.buf = protowire.AppendString(e.buf, s)
}

func (e *otlpEncoder) anyBool(b bool) {
	e.buf = protowire.AppendTag(e.buf, fAnyBool, protowire.VarintType)
	e.buf = protowire.AppendVarint(e.buf, protowire.EncodeBool(b))
}

func (e *otlpEncoder) anyInt(i int64) {
	e.buf = protowire.AppendTag(e.buf, fAnyInt, protowire.VarintType)
	e.buf = protowire.AppendVarint(e.buf, uint64(i))
}

func (e *otlpEncoder) anyDouble(f float64) {
	e.buf = protowire.AppendTag(e.buf, fAnyDouble, protowire.Fixed64Type)
	e.buf = protowire.AppendFixed64(e.buf, math.Float64bits(f))
}

// begin starts a message in field f and returns where its length goes;
// end writes that length. One byte is kept for it, which is enough for a
// message under 128 bytes; a longer one's bytes move up by the rest.
func (e *otlpEncoder) begin(f protowire.Number) int {
	e.buf = protowire.AppendTag(e.buf, f, protowire.BytesType)
	e.buf = append(e.buf, 0)
	return len(e.buf) - 1
}

func (e *otlpEncoder) end(at int) {
	n := len(e.buf) - at - 1
	size := protowire.SizeVarint(uint64(n))
	if size == 1 {
		e.buf[at] = byte(n)
		return
	}
	e.buf = append(e.buf, make([]byte, size-1)...)
	copy(e.buf[at+size:], e.buf[at+1:at+1+n])
	protowire.AppendVarint(e.buf[at:at], uint64(n))
}

// str, bytes and uint leave out a zero value, as proto3 does.
func (e *otlpEncoder) str(f protowire.Number, s string) {
	if s == "" {
		return
	}
	e.buf = protowire.AppendTag(e.buf, f, protowire.BytesType)
	e.buf = protowire.AppendString(e.buf, s)
}

func (e *otlpEncoder) bytes(f protowire.Number, b []byte) {
	e.buf = protowire.AppendTag(e.buf, f, protowire.BytesType)
	e.buf = protowire.AppendBytes(e.buf, b)
}

func (e *otlpEncoder) uint(f protowire.Number, v uint64) {
	if v == 0 {
		return
	}
	e.buf = protowire.AppendTag(e.buf, f, protowire.VarintType)
	e.buf = protowire.AppendVarint(e.buf, v)
}

func (e *otlpEncoder) fixed64(f protowire.Number, v uint64) {
	if v == 0 {
		return
	}
	e.buf = protowire.AppendTag(e.buf, f, protowire.Fixed64Type)
	e.buf = protowire.AppendFixed64(e.buf, v)
}

func (e *otlpEncoder) fixed32(f protowire.Number, v uint32) {
	if v == 0 {
		return
	}
	e.buf = protowire.AppendTag(e.buf, f, protowire.Fixed32Type)
	e.buf = protowire.AppendFixed32(e.buf, v)
}

func unixNano(n int64) uint64 { return uint64(max(0, n)) }

func clampCount(n int) uint64 { return uint64(min(max(n, 0), math.MaxUint32)) }

// spanFlags are the W3C trace flags and whether the parent (or linked
// span) is remote, as the SDK's transform sets them.
func spanFlags(tf trace.TraceFlags, parent trace.SpanContext) uint32 {
	f := uint32(tf) | flagHasIsRemoteMask
	if parent.IsRemote() {
		f |= flagIsRemoteMask
	}
	return f
}

// otlpKind is the Span.SpanKind enum value of k.
func otlpKind(k trace.SpanKind) int {
	switch k {
	case trace.SpanKindInternal, trace.SpanKindServer, trace.SpanKindClient, trace.SpanKindProducer, trace.SpanKindConsumer:
		return int(k) // the SDK's numbering is the proto's
	default:
		return 0
	}
}

// otlpStatus is the Status.StatusCode enum value of c.
func otlpStatus(c codes.Code) int {
	switch c {
	case codes.Ok:
		return 1
	case codes.Error:
		return 2
	default:
		return 0
	}
}
