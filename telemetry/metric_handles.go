package telemetry

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// The metrics' label-bound handles, looked up once per label value
// (WithLabelValues hashes and allocates at each call): a turn's metrics
// then cost a map read under a read lock. The label values are bounded
// (see Metrics), so are the caches.

// providerHandles are a provider's model round metrics.
type providerHandles struct {
	round                                   prometheus.Observer
	input, output, cacheRead, cacheCreation prometheus.Counter
}

// kindHandles are an agent kind's turn metrics.
type kindHandles struct {
	started  prometheus.Counter
	duration prometheus.Observer
}

// toolHandles are a tool's metrics (the status label stays a lookup:
// a tool's calls mostly share one).
type toolHandles struct {
	ok       prometheus.Counter
	duration prometheus.Observer
}

// handleCache maps a label value to its handles, made once by make.
type handleCache[H any] struct {
	mu   sync.RWMutex
	m    map[string]*H
	make func(label string) *H
}

func newHandleCache[H any](make func(label string) *H) *handleCache[H] {
	return &handleCache[H]{m: map[string]*H{}, make: make}
}

func (c *handleCache[H]) get(label string) *H {
	c.mu.RLock()
	h, ok := c.m[label]
	c.mu.RUnlock()
	if ok {
		return h
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if h, ok := c.m[label]; ok {
		return h
	}
	h = c.make(label)
	c.m[label] = h
	return h
}

// cacheHandles builds m's handle caches over its metric vectors.
func (m *Metrics) cacheHandles() {
	m.byProvider = newHandleCache(func(p string) *providerHandles {
		return &providerHandles{round: m.roundSeconds.WithLabelValues(p),
			input: m.tokens.WithLabelValues(p, "input"), output: m.tokens.WithLabelValues(p, "output"),
			cacheRead: m.tokens.WithLabelValues(p, "cache_read"), cacheCreation: m.tokens.WithLabelValues(p, "cache_creation")}
	})
	m.byKind = newHandleCache(func(k string) *kindHandles {
		return &kindHandles{started: m.turnsStarted.WithLabelValues(k), duration: m.turnSeconds.WithLabelValues(k)}
	})
	m.byTool = newHandleCache(func(t string) *toolHandles {
		return &toolHandles{ok: m.toolCalls.WithLabelValues(t, "ok"), duration: m.toolSeconds.WithLabelValues(t)}
	})
}
