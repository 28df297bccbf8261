package mailbox

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/messages"
)

// Prioritized is implemented by messages that choose their mailbox band.
// Priority runs on the sender's goroutine while the message is posted, so it
// must be cheap, must not block, and must be safe to call concurrently.
type Prioritized interface {
	Priority() messages.Priority
}

// numBands is the number of user-message bands, one per messages.Priority,
// indexed by Priority.Rank().
const numBands = 4

// The bands, most urgent first.
var (
	interjectBand  = messages.PriorityInterject.Rank()
	normalBand     = messages.PriorityNormal.Rank()
	backgroundBand = messages.PriorityBackground.Rank()
)

// Scheduler states of a mailbox, as in protoactor's own mailbox.
const (
	mailboxIdle int32 = iota
	mailboxRunning
)

var _ actor.Mailbox = (*bandMailbox)(nil)

// Banded returns a producer of mailboxes with four FIFO bands of user
// messages: interject > next > normal > background. Use it as
// actor.WithMailbox(mailbox.Banded(sig)).
//
// A user message's band is its Priority() if it is Prioritized, looked up
// through a *actor.MessageEnvelope (RequestFuture, ctx.Request, Forward of a
// request and sender middleware all wrap the message in one); a message that
// is not Prioritized, or has an empty or unknown priority, is normal.
// *actor.PoisonPill goes to background, so Poison still processes every user
// message queued before it, as with protoactor's default mailbox. Messages
// posted later in a higher band run before it; those in background are
// dropped with the rest when the actor stops.
//
// Everything else follows protoactor's default mailbox: system messages run
// before any user message; *actor.SuspendMailbox and *actor.ResumeMailbox are
// handled here, and while suspended (a failed actor awaiting its supervisor)
// only system messages run, so queued user messages survive a restart; the
// mailbox runs on the dispatcher only while it holds messages, yielding with
// runtime.Gosched every Throughput() messages; a panic is recovered and
// passed to the invoker's EscalateFailure with the message; an
// actor.MessageBatch, bare or in an envelope, is unpacked and each of its
// messages posted in its own band, then the batch itself is posted; the
// middlewares see each message posted and received, the start, and each time
// the mailbox runs dry.
//
// sig, which may be nil, is told about every interject message (see Signal).
// A producer with a non-nil sig must build the mailbox of one actor only.
func Banded(sig *Signal, mw ...actor.MailboxMiddleware) actor.MailboxProducer {
	return func() actor.Mailbox {
		m := &bandMailbox{sig: sig, middlewares: mw}
		m.process = m.processMessages // one closure for the mailbox's life, not one each time it is scheduled
		return m
	}
}

// bandMailbox implements actor.Mailbox. Senders post from any goroutine;
// run, and everything it calls, executes on one goroutine at a time, the one
// that won the idle→running transition.
type bandMailbox struct {
	mu     sync.Mutex         // guards system and user
	system bandRing           // system messages
	user   [numBands]bandRing // user messages, by band

	status    atomic.Int32 // mailboxIdle or mailboxRunning
	sysCount  atomic.Int32 // messages in system; changed under mu
	userCount atomic.Int32 // messages in user; changed under mu
	suspended atomic.Bool  // written by run only

	sig         *Signal // may be nil
	invoker     actor.MessageInvoker
	dispatcher  actor.Dispatcher
	middlewares []actor.MailboxMiddleware
	process     func() // processMessages, what schedule hands the dispatcher
}

// bandOf returns the band of a user message, looking through an envelope.
func bandOf(msg any) int {
	switch m := actor.UnwrapEnvelopeMessage(msg).(type) {
	case Prioritized:
		if r := m.Priority().Rank(); r < numBands {
			return r
		}
	case *actor.PoisonPill:
		return backgroundBand
	}
	return normalBand
}

// PostUserMessage queues msg in its band and schedules the mailbox. For an
// interject message it then tells the Signal, on the caller's goroutine.
func (m *bandMailbox) PostUserMessage(msg any) {
	if batch, ok := actor.UnwrapEnvelopeMessage(msg).(actor.MessageBatch); ok {
		for _, inner := range batch.GetMessages() {
			m.PostUserMessage(inner)
		}
	}
	for _, mw := range m.middlewares {
		mw.MessagePosted(msg)
	}
	b := bandOf(msg)
	signal := b == interjectBand && m.sig != nil
	m.mu.Lock()
	m.user[b].push(msg)
	m.userCount.Add(1)
	queued[b].Add(1)
	if signal {
		m.sig.queued()
	}
	m.mu.Unlock()
	m.schedule()
	if signal {
		m.sig.notify()
	}
}

// PostSystemMessage queues msg ahead of every user message and schedules the
// mailbox.
func (m *bandMailbox) PostSystemMessage(msg any) {
	for _, mw := range m.middlewares {
		mw.MessagePosted(msg)
	}
	m.mu.Lock()
	m.system.push(msg)
	m.sysCount.Add(1)
	m.mu.Unlock()
	m.schedule()
}

// RegisterHandlers sets the actor that receives the messages and the
// dispatcher that runs the mailbox. protoactor calls it once, before any
// message is posted.
func (m *bandMailbox) RegisterHandlers(invoker actor.MessageInvoker, dispatcher actor.Dispatcher) {
	m.invoker = invoker
	m.dispatcher = dispatcher
}

// Start tells the middlewares that the mailbox started.
func (m *bandMailbox) Start() {
	for _, mw := range m.middlewares {
		mw.MailboxStarted()
	}
}

// UserMessageCount returns the number of queued user messages, all bands.
func (m *bandMailbox) UserMessageCount() int { return int(m.userCount.Load()) }

// schedule puts the mailbox on the dispatcher unless it is already running.
func (m *bandMailbox) schedule() {
	if m.status.CompareAndSwap(mailboxIdle, mailboxRunning) {
		m.dispatcher.Schedule(m.process)
	}
}

// processMessages runs the mailbox until it has nothing it may process, then
// goes idle. A message posted after run returned but before the status went
// idle found the mailbox running and did not schedule it, so after going idle
// it checks the counts again and, if it wins the status back, keeps going.
func (m *bandMailbox) processMessages() {
	for {
		m.run()
		m.status.Store(mailboxIdle)
		sys, user := m.sysCount.Load(), m.userCount.Load()
		if (sys > 0 || (user > 0 && !m.suspended.Load())) && m.status.CompareAndSwap(mailboxIdle, mailboxRunning) {
			continue
		}
		if user == 0 && !m.suspended.Load() {
			for _, mw := range m.middlewares {
				mw.MailboxEmpty()
			}
		}
		return
	}
}

// run delivers system messages first, then user messages in band order,
// until both queues are empty or the mailbox is suspended with no system
// message left. A panic ends it and is escalated with the message.
func (m *bandMailbox) run() {
	var msg any
	defer func() {
		if r := recover(); r != nil {
			m.invoker.EscalateFailure(r, msg)
		}
	}()
	var ok bool
	for i, t := 0, m.dispatcher.Throughput(); ; i++ {
		if i > t {
			i = 0
			runtime.Gosched()
		}
		if msg, ok = m.popSystem(); ok {
			switch msg.(type) {
			case *actor.SuspendMailbox:
				m.suspended.Store(true)
			case *actor.ResumeMailbox:
				m.suspended.Store(false)
			default:
				m.invoker.InvokeSystemMessage(msg)
			}
			m.received(msg)
			continue
		}
		if m.suspended.Load() {
			return
		}
		if msg, ok = m.popUser(); !ok {
			return
		}
		m.invoker.InvokeUserMessage(msg)
		m.received(msg)
	}
}

func (m *bandMailbox) received(msg any) {
	for _, mw := range m.middlewares {
		mw.MessageReceived(msg)
	}
}

func (m *bandMailbox) popSystem() (any, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	msg, ok := m.system.pop()
	if ok {
		m.sysCount.Add(-1)
	}
	return msg, ok
}

// popUser takes the oldest message of the most urgent non-empty band.
func (m *bandMailbox) popUser() (any, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for b := range m.user {
		if msg, ok := m.user[b].pop(); ok {
			m.userCount.Add(-1)
			queued[b].Add(-1)
			if b == interjectBand && m.sig != nil {
				m.sig.taken()
			}
			return msg, true
		}
	}
	return nil, false
}

// capacity returns the slots allocated by all queues, for tests.
func (m *bandMailbox) capacity() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.system.buf)
	for b := range m.user {
		n += len(m.user[b].buf)
	}
	return n
}

// minRingCap is the capacity a bandRing allocates first and shrinks back to.
const minRingCap = 8

// bandRing is a FIFO queue on a circular buffer whose capacity is zero or a
// power of two. It doubles when full and halves when at most a quarter full,
// down to minRingCap, so a mailbox gives back the memory of a drained burst.
// Push and pop are amortised O(1). The zero bandRing is empty and allocates
// nothing.
type bandRing struct {
	buf  []any
	head int // index of the oldest message
	n    int // messages held
}

func (r *bandRing) push(v any) {
	if r.n == len(r.buf) {
		r.resize(max(minRingCap, 2*len(r.buf)))
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = v
	r.n++
}

func (r *bandRing) pop() (any, bool) {
	if r.n == 0 {
		return nil, false
	}
	v := r.buf[r.head]
	r.buf[r.head] = nil // let the message be collected
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	if len(r.buf) > minRingCap && r.n <= len(r.buf)/4 {
		r.resize(len(r.buf) / 2)
	}
	return v, true
}

// resize moves the messages, oldest first, to a new buffer of capacity c >= n.
func (r *bandRing) resize(c int) {
	buf := make([]any, c)
	k := copy(buf, r.buf[r.head:min(r.head+r.n, len(r.buf))])
	copy(buf[k:], r.buf[:r.n-k])
	r.buf, r.head = buf, 0
}
