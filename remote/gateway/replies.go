package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// Defaults of the reply bounds (Config.MaxQueuedReplies,
// Config.MaxInFlightPerClient).
const (
	// DefaultMaxQueuedReplies is how many replies to one reply address
	// may wait in remote's queue for a connection that does not take
	// them: the address does not read. 64 is more than a client has in
	// flight (its own cap), so a reading client never meets it.
	DefaultMaxQueuedReplies = 64
	// DefaultMaxInFlightPerClient is how many requests of one
	// certificate are answered at once: a quarter of the gateway's
	// slots, so one client's long polls leave the others room.
	DefaultMaxInFlightPerClient = 64
	// DefaultMaxQueuedReplyBytes bounds the bytes of those replies: eight
	// full events pages.
	DefaultMaxQueuedReplyBytes = 8 << 20
)

// probeTimeout bounds the TLS handshake that learns who holds a reply
// address; probeTTL is how long its answer stands in for the connection
// remote then dials.
const (
	probeTimeout = 3 * time.Second
	probeTTL     = 30 * time.Second
	// maxAddrs is the number of reply addresses over which idle ones are
	// forgotten.
	maxAddrs = 4096
)

// replyTypePrefix starts the type name of every reply the gateway sends.
const replyTypePrefix = "holon.remote.v1."

// replyBook is what the gateway knows of the addresses it answers: who
// holds each (the certificate name on the connection remote dialled to
// it, or a probe's), how many replies wait in remote's queue for it, and
// how many requests of each certificate are in flight. Remote's endpoint
// writer queues without bound for a connection that does not read, and
// a peer names its reply address itself: the book is what bounds the one
// and checks the other. Safe for concurrent use.
type replyBook struct {
	maxQueued, maxQueuedBytes, maxPerClient int
	// probe returns the certificate name a TLS handshake with addr shows.
	probe func(ctx context.Context, addr string) (string, error)
	now   func() time.Time

	mu       sync.Mutex
	addrs    map[string]*replyAddr // by address; guarded by mu
	clients  map[string]int        // requests in flight by certificate name; guarded by mu
	queuedBy map[string]load       // replies queued by certificate name, over its addresses; guarded by mu
}

// replyAddr is one reply address's state.
type replyAddr struct {
	name     string   // the certificate on the live connection to it, "" none
	conn     net.Conn // that connection: closed to stop an endpoint that does not read
	probed   string   // the certificate a probe saw
	probedAt time.Time
	owner    string // the certificate whose replies are queued
	queued   int    // replies handed to remote, not yet sent on the connection
	bytes    int    // their size
	peak     int    // the most queued at once
	dropped  int    // requests dropped since the address was last told
	// droppedTotal and requests count the requests dropped and decided.
	droppedTotal, requests int
	probing                chan struct{} // closed when the probe under way ends; nil: none
}

// load is a number of replies and their bytes.
type load struct{ n, bytes int }

func newReplyBook(maxQueued, maxQueuedBytes, maxPerClient int, probe func(context.Context, string) (string, error)) *replyBook {
	return &replyBook{maxQueued: maxQueued, maxQueuedBytes: maxQueuedBytes, maxPerClient: maxPerClient, probe: probe, now: time.Now,
		addrs: map[string]*replyAddr{}, clients: map[string]int{}, queuedBy: map[string]load{}}
}

// full reports whether who has as many replies queued as it may; b.mu is
// held.
func (b *replyBook) full(who string) bool {
	l := b.queuedBy[who]
	return l.n >= b.maxQueued || l.bytes >= b.maxQueuedBytes
}

// The outcomes of admit besides a ticket.
var (
	// errSpoofed: the reply address is held by another certificate.
	errSpoofed = errors.New("the reply address is held by another certificate")
	// errNotReading: the reply address has MaxQueuedReplies waiting.
	errNotReading = errors.New("the reply address does not read its replies")
	// errUnreachable: no TLS handshake with the reply address.
	errUnreachable = errors.New("the reply address cannot be reached")
)

// admit decides whether a request of certificate who, answered at addr,
// runs. It returns release (call it once the reply is queued) when it
// runs; a *remotepb.Error to answer instead of running it, already
// counted as queued; or, when nothing may be sent to addr, one of
// errSpoofed, errNotReading and errUnreachable: the request is dropped
// unanswered.
func (b *replyBook) admit(ctx context.Context, addr, who string) (release func(), refusal *remotepb.Error, err error) {
	defer func() { // decided: run, refused or dropped
		b.mu.Lock()
		b.entry(addr).requests++
		b.mu.Unlock()
	}()
	name, err := b.holder(ctx, addr)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", errUnreachable, err)
	}
	if name != who {
		return nil, nil, fmt.Errorf("%w (%s, not %s)", errSpoofed, name, who)
	}
	var stuck []net.Conn
	defer func() { // after the unlock: closing tells the book
		for _, c := range stuck {
			c.Close()
		}
	}()
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.entry(addr)
	switch {
	case b.full(who):
		a.dropped++
		a.droppedTotal++
		// Remote's writers, stuck in a send to who's addresses, end, and
		// what they queued is freed.
		stuck = b.stuck(who)
		l := b.queuedBy[who]
		return nil, nil, fmt.Errorf("%w: %d replies (%d bytes) wait", errNotReading, l.n, l.bytes)
	case b.clients[who] >= b.maxPerClient:
		refusal = clientBusy(b.maxPerClient)
	case a.dropped > 0:
		refusal = repliesDropped(addr, a.dropped)
		a.dropped = 0
	}
	if refusal != nil {
		b.reserve(a, who, proto.Size(refusal))
		return nil, refusal, nil
	}
	b.clients[who]++
	var once sync.Once
	return func() { once.Do(func() { b.done(who) }) }, nil, nil
}

// stuck are the connections to who's addresses with replies waiting;
// b.mu is held.
func (b *replyBook) stuck(who string) []net.Conn {
	var out []net.Conn
	for _, a := range b.addrs {
		if a.owner == who && a.queued > 0 && a.conn != nil {
			out = append(out, a.conn)
		}
	}
	return out
}

// reserve counts a reply of size bytes to a, held by who, as queued;
// b.mu is held.
func (b *replyBook) reserve(a *replyAddr, who string, size int) {
	if a.owner != who { // a new holder: the old one's replies went with its connection
		b.unqueue(a, a.queued, a.bytes)
	}
	a.owner = who
	a.queued++
	a.bytes += size
	a.peak = max(a.peak, a.queued)
	l := b.queuedBy[who]
	b.queuedBy[who] = load{l.n + 1, l.bytes + size}
}

// unqueue takes n replies of size bytes off a's count; b.mu is held.
func (b *replyBook) unqueue(a *replyAddr, n, size int) {
	n, size = min(n, a.queued), min(size, a.bytes)
	a.queued -= n
	a.bytes -= size
	l := b.queuedBy[a.owner]
	if l = (load{l.n - n, l.bytes - size}); l.n <= 0 {
		delete(b.queuedBy, a.owner)
	} else {
		b.queuedBy[a.owner] = l
	}
}

func (b *replyBook) done(who string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.clients[who]--; b.clients[who] <= 0 {
		delete(b.clients, who)
	}
}

// holder is the certificate name holding addr: the live connection's,
// else a recent probe's, else a new probe's.
func (b *replyBook) holder(ctx context.Context, addr string) (string, error) {
	for {
		b.mu.Lock()
		a := b.entry(addr)
		name, known := b.known(a)
		probing := a.probing
		if !known && probing == nil {
			a.probing = make(chan struct{}) // closed by this probe's end
			probing = a.probing
			b.mu.Unlock()
			return b.probeFor(ctx, addr, a, probing)
		}
		b.mu.Unlock()
		if known {
			return name, nil
		}
		select { // another request's probe: its answer serves this one
		case <-probing:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// probeFor runs the one probe of a, closing probing at its end.
func (b *replyBook) probeFor(ctx context.Context, addr string, a *replyAddr, probing chan struct{}) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	name, err := b.probe(ctx, addr)
	b.mu.Lock()
	defer b.mu.Unlock()
	a.probing = nil
	close(probing)
	if err != nil {
		return "", err
	}
	a.probed, a.probedAt = name, b.now()
	return name, nil
}

// known is the certificate name holding a without a probe: the live
// connection's, else a recent probe's; b.mu is held.
func (b *replyBook) known(a *replyAddr) (string, bool) {
	switch {
	case a.conn != nil:
		return a.name, true
	case a.probed != "" && b.now().Sub(a.probedAt) < probeTTL:
		return a.probed, true
	}
	return "", false
}

// entry is addr's state, made when new; b.mu is held.
func (b *replyBook) entry(addr string) *replyAddr {
	if a, ok := b.addrs[addr]; ok {
		return a
	}
	if len(b.addrs) >= maxAddrs {
		for k, a := range b.addrs {
			if a.conn == nil && a.queued == 0 && a.dropped == 0 && a.probing == nil && b.now().Sub(a.probedAt) >= probeTTL {
				delete(b.addrs, k)
			}
		}
	}
	a := &replyAddr{}
	b.addrs[addr] = a
	return a
}

// mayTell reports whether a refusal may be sent to addr for who without a
// probe: addr's holder is known to be who, whose replies are read. When
// it may, the refusal is counted as queued.
func (b *replyBook) mayTell(addr, who string, refusal *remotepb.Error) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, ok := b.addrs[addr]
	if !ok || b.full(who) {
		return false
	}
	if name, known := b.known(a); !known || name != who {
		return false
	}
	b.reserve(a, who, proto.Size(refusal))
	return true
}

// queue counts reply m to who handed to remote for addr.
func (b *replyBook) queue(addr, who string, m proto.Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserve(b.entry(addr), who, proto.Size(m))
}

// sent counts n replies of size bytes remote sent on its connection to
// addr.
func (b *replyBook) sent(addr string, n, size int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if a, ok := b.addrs[addr]; ok {
		b.unqueue(a, n, size)
	}
}

// terminated forgets what remote held for addr: its endpoint ended, and
// the replies it queued with it.
func (b *replyBook) terminated(addr string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if a, ok := b.addrs[addr]; ok {
		b.unqueue(a, a.queued, a.bytes)
	}
}

// connected records that the connection remote dialled to addr is held
// by certificate name.
func (b *replyBook) connected(addr, name string, c net.Conn) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.entry(addr)
	a.name, a.conn = name, c
	a.probed, a.probedAt = name, b.now()
}

// closed forgets connection c to addr, and who held it: another
// process may listen there next.
func (b *replyBook) closed(addr string, c net.Conn) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if a, ok := b.addrs[addr]; ok && a.conn == c {
		a.name, a.conn, a.probed = "", nil, ""
	}
}

// closeAll closes every live connection to a reply address.
func (b *replyBook) closeAll() {
	b.mu.Lock()
	var conns []net.Conn
	for _, a := range b.addrs {
		if a.conn != nil {
			conns = append(conns, a.conn)
		}
	}
	b.mu.Unlock()
	for _, c := range conns {
		c.Close() // tells the book
	}
}

// ReplyStats are what a node knows of one reply address.
type ReplyStats struct {
	// Queued is how many replies wait in remote's queue for the address,
	// QueuedBytes their size; Peak the most that ever did at once.
	Queued, QueuedBytes, Peak int
	// Dropped counts the requests dropped since the address was last
	// told; DroppedTotal all of them.
	Dropped, DroppedTotal int
	// Requests counts the requests answered there that were decided:
	// run, refused or dropped.
	Requests int
	// Holder is the certificate name on the node's connection to it.
	Holder string
	// InFlight counts the requests of the address's known holder being
	// answered.
	InFlight int
}

func (b *replyBook) stats(addr string) ReplyStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, ok := b.addrs[addr]
	if !ok {
		return ReplyStats{}
	}
	st := ReplyStats{Queued: a.queued, QueuedBytes: a.bytes, Peak: a.peak, Dropped: a.dropped, DroppedTotal: a.droppedTotal,
		Requests: a.requests, Holder: a.name}
	if name, known := b.known(a); known {
		st.InFlight = b.clients[name]
	}
	return st
}

// The refusals the book answers with.
func clientBusy(n int) *remotepb.Error {
	return &remotepb.Error{Code: remotepb.CodeClientBusy, HttpStatus: 429,
		Message: fmt.Sprintf("this certificate has %d remote requests in flight, its limit", n),
		Hint:    "wait for your requests' answers (fewer long polls at once), or use another client certificate"}
}

func repliesDropped(addr string, n int) *remotepb.Error {
	return &remotepb.Error{Code: remotepb.CodeRepliesDropped, HttpStatus: 429,
		Message: fmt.Sprintf("%d requests answered at %s were dropped: its earlier replies were not read", n, addr),
		Hint:    "read the node's replies at your endpoint, then send the dropped requests again (a prompt with its message_id)"}
}
