package control

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"runtime"
	"strconv"
	"sync"
	"weak"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// Bounds of the event streams' memory.
const (
	// streamPageBytes bounds the events (their stored size) one stream
	// reads at a time; a single larger event is read alone.
	streamPageBytes = 256 << 10
	// DefaultFrameCacheBytes bounds the encoded frames kept for the
	// streams to share when Config.FrameCacheBytes is 0.
	DefaultFrameCacheBytes = 16 << 20
)

// frame is one event encoded as a Server-Sent Event: "id", "event" and
// "data" lines and the blank line that ends it. data is never modified
// once built, so every stream writes the same bytes.
type frame struct {
	seq  uint64
	data []byte
}

// frameKey names a frame: the same event is encoded once as replayed and
// once as live.
type frameKey struct {
	agent    string
	seq      uint64
	replayed bool
}

// pageLoad is one read-and-encode of a page in flight; the streams asking
// for the same page wait for it instead of reading it again.
type pageLoad struct {
	done   chan struct{} // closed by the loader when frames and err are set
	began  uint64        // frameCache.reads when it was started
	frames []*frame
	err    error
}

// frameCache encodes each event once for every stream that serves it. A
// stream asks for the frames after its cursor: the consecutive ones
// already encoded come from the cache; otherwise one page is read from the
// store (bounded by streamPageBytes) and encoded, once however many
// streams at that cursor ask at the same time. The cache holds at most
// maxBytes of frames, the least recently used go first; what a stream
// holds besides is the page it is writing, and a frame it holds is found
// by the streams after it (live) until it is collected.
type frameCache struct {
	store     persistence.Journal
	maxBytes  int
	pageBytes int // streamPageBytes

	mu    sync.Mutex
	lru   *list.List                 // of cachedFrame, newest first; guarded by mu
	byKey map[frameKey]*list.Element // guarded by mu
	// live finds every frame still held by a stream or the cache, weakly:
	// streams replaying the same events at different moments share one
	// copy of each even after the cache let it go. A frame's entry is
	// removed once the frame is collected. Guarded by mu.
	live   map[frameKey]weak.Pointer[frame]
	bytes  int                    // of the frames in lru; guarded by mu
	flight map[frameKey]*pageLoad // keyed by the page's first seq; guarded by mu
	reads  uint64                 // counts calls of next and loads started; guarded by mu
}

// cachedFrame is an element of frameCache.lru.
type cachedFrame struct {
	key   frameKey
	frame *frame
}

func newFrameCache(store persistence.Journal, maxBytes int) *frameCache {
	if maxBytes <= 0 {
		maxBytes = DefaultFrameCacheBytes
	}
	return &frameCache{store: store, maxBytes: maxBytes, pageBytes: streamPageBytes, lru: list.New(),
		byKey: map[frameKey]*list.Element{}, live: map[frameKey]weak.Pointer[frame]{}, flight: map[frameKey]*pageLoad{}}
}

// next returns the frames of agent's events after the cursor, in order, at
// most about one page of them; none when there are none yet. Events up to
// opened are encoded as replayed; a page never mixes the two.
//
// A stream shares only a read that began after it called next: one begun
// earlier may have missed the append that woke it, so it waits for that
// one to end and looks again.
func (c *frameCache) next(ctx context.Context, agent string, after, opened uint64) ([]*frame, error) {
	from, to, replayed := after+1, ^uint64(0), after < opened
	if replayed {
		to = opened
	}
	key := frameKey{agent, from, replayed}
	c.mu.Lock()
	c.reads++
	called := c.reads
	for {
		if frames := c.cachedLocked(key, to); len(frames) > 0 {
			c.mu.Unlock()
			return frames, nil
		}
		load, loading := c.flight[key]
		if !loading {
			c.reads++
			load = &pageLoad{done: make(chan struct{}), began: c.reads}
			c.flight[key] = load
		}
		c.mu.Unlock()
		if !loading {
			// Not cancelled with this stream: others may be waiting for
			// the page, and reading one is bounded.
			c.load(context.WithoutCancel(ctx), key, to, load)
		}
		select {
		case <-load.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if load.began > called {
			return load.result(to)
		}
		c.mu.Lock() // the read began too early for this stream: again
	}
}

// result is the load's frames up to to: a page loaded for another stream
// may run past this one's opened.
func (l *pageLoad) result(to uint64) ([]*frame, error) {
	if l.err != nil {
		return nil, l.err
	}
	out := l.frames
	for len(out) > 0 && out[len(out)-1].seq > to {
		out = out[:len(out)-1]
	}
	return out, nil
}

// cachedLocked returns the consecutive cached frames from key.seq up to
// to, at most pageBytes of them (one at least).
func (c *frameCache) cachedLocked(key frameKey, to uint64) []*frame {
	var out []*frame
	size := 0
	for ; key.seq <= to && size < c.pageBytes; key.seq++ {
		f := c.lookupLocked(key)
		if f == nil {
			break
		}
		out = append(out, f)
		size += len(f.data)
	}
	return out
}

// lookupLocked returns the frame at key from the cache (which it
// refreshes) or from the frames still alive, or nil.
func (c *frameCache) lookupLocked(key frameKey) *frame {
	if el, ok := c.byKey[key]; ok {
		c.lru.MoveToFront(el)
		return el.Value.(cachedFrame).frame
	}
	if f := c.live[key].Value(); f != nil {
		c.addLocked(key, f)
		return f
	}
	return nil
}

// load reads and encodes the page from key.seq up to to for every stream
// waiting on it. It runs in the goroutine of the stream that asked first.
func (c *frameCache) load(ctx context.Context, key frameKey, to uint64, load *pageLoad) {
	evs, err := c.store.ReadPage(ctx, key.agent, key.seq, to, MaxPageLimit, c.pageBytes)
	for i := 0; err == nil && i < len(evs); i++ {
		var data []byte
		if data, err = encodeFrame(evs[i], key.replayed); err == nil {
			load.frames = append(load.frames, &frame{seq: evs[i].Seq, data: data})
			evs[i] = messages.Event{} // its payload is garbage now
		}
	}
	load.err = err
	c.mu.Lock()
	delete(c.flight, key)
	if err == nil {
		for i, f := range load.frames {
			fk := frameKey{key.agent, f.seq, key.replayed}
			if alive := c.live[fk].Value(); alive != nil {
				load.frames[i] = alive // keep one copy: this one is garbage
			} else {
				c.watchLocked(fk, f)
			}
			c.addLocked(fk, load.frames[i])
		}
	}
	c.mu.Unlock()
	close(load.done)
}

// watchLocked records f among the live frames until it is collected.
func (c *frameCache) watchLocked(key frameKey, f *frame) {
	wp := weak.Make(f)
	c.live[key] = wp
	runtime.AddCleanup(f, func(key frameKey) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.live[key] == wp { // not replaced by a newer frame for the key
			delete(c.live, key)
		}
	}, key)
}

// addLocked caches f, evicting the least recently used frames past
// maxBytes. A frame larger than the whole cache is not kept.
func (c *frameCache) addLocked(key frameKey, f *frame) {
	if _, ok := c.byKey[key]; ok || len(f.data) > c.maxBytes {
		return
	}
	c.byKey[key] = c.lru.PushFront(cachedFrame{key, f})
	c.bytes += len(f.data)
	for c.bytes > c.maxBytes {
		old := c.lru.Remove(c.lru.Back()).(cachedFrame)
		c.bytes -= len(old.frame.data)
		delete(c.byKey, old.key)
	}
}

// clear drops every cached frame; streams writing one keep theirs.
func (c *frameCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Init()
	clear(c.byKey)
	c.bytes = 0
}

// encodeFrame encodes ev as one Server-Sent Event whose id is its
// event_seq and whose data is its StreamEvent on one line.
func encodeFrame(ev messages.Event, replayed bool) ([]byte, error) {
	var b bytes.Buffer
	// The payload, and for most large events a presentation body as long.
	b.Grow(2*len(ev.Payload) + 1024)
	b.WriteString("id: ")
	b.WriteString(strconv.FormatUint(ev.Seq, 10))
	b.WriteString("\nevent: ")
	b.WriteString(string(ev.Type))
	b.WriteString("\ndata: ")
	if err := json.NewEncoder(&b).Encode(NewStreamEvent(ev, replayed)); err != nil {
		return nil, err
	}
	b.WriteByte('\n') // Encode ended the data line; this ends the event
	data := b.Bytes()
	if cap(data)-len(data) > len(data)/4 {
		data = bytes.Clone(data) // the cache holds what it counts
	}
	return data, nil
}
