package telemetry

import (
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
)

// maxCached bounds each of the caches below: past it, a value is made
// each time instead of kept (a model may be named anything).
const maxCached = 256

// spanNames caches the span names of an operation and a model or tool
// ("chat gpt-5"), made once instead of at every span.
type spanNames struct {
	m sync.Map // [2]string{op, what} → string
	n atomic.Int32
}

func (c *spanNames) get(op, what string) string {
	k := [2]string{op, what}
	if v, ok := c.m.Load(k); ok {
		return v.(string)
	}
	name := op + " " + what
	if c.n.Add(1) <= maxCached {
		c.m.Store(k, name)
	}
	return name
}

// finishReasons is the gen_ai.response.finish_reasons attribute of a
// round that stopped for reason, made once per reason (a string slice
// attribute allocates each time it is made).
func (t *Telemetry) finishReasons(reason string) attribute.KeyValue {
	if v, ok := t.finish.Load(reason); ok {
		return v.(attribute.KeyValue)
	}
	kv := attribute.StringSlice(attrFinishReasons, []string{reason})
	if t.finishN.Add(1) <= maxCached {
		t.finish.Store(reason, kv)
	}
	return kv
}
