package mailbox

import "sync/atomic"

// Signal tells a running agent that an interject-priority message is waiting
// in its mailbox. It is shared by one agent and the mailbox that
// Banded(sig) builds for it; build the agent's Props per agent:
//
//	sig := new(mailbox.Signal)
//	props := actor.PropsFromProducer(func() actor.Actor { return &Agent{sig: sig} },
//		actor.WithMailbox(mailbox.Banded(sig)))
//
// The mailbox counts a message as pending from the moment it is queued in the
// interject band (on the sender's goroutine, before Send returns) until the
// mailbox takes it out to deliver it, just before Receive sees it. Pending is
// therefore exactly the number of interject messages still queued, and an
// interject is always delivered before any queued next, normal or background
// message.
//
// How an agent observes it. Receive never blocks: a model call or tool batch
// runs in a goroutine owned by the agent and returns as a message. At each
// safe point (after a model reply, after a tool batch) that step checks
// Pending() > 0, a single atomic load, and, if an interject waits, ends the
// step there and reports where it stopped; the interject is the next message
// Receive gets, and the agent splices it into the turn. The OnInterject
// callback serves steps that wait rather than poll: it can cancel the step's
// context or wake it from a select, so a long wait is cut short.
//
// A restart by a supervisor keeps the actor's mailbox, and with it the
// Signal and its count. Messages still queued when the actor stops are taken
// out and dropped, as protoactor's own mailbox does, so the count returns to
// zero; still, give an agent spawned again a new Signal, and never share one
// between two mailboxes. The zero Signal is ready to use; all methods are
// safe for concurrent use.
//
// The runtime's agents build their mailbox without a Signal (Banded(nil)):
// an interject reaches them through band order alone, when their Receive
// takes the next message.
type Signal struct {
	pending     atomic.Int64
	onInterject atomic.Pointer[func()]
}

// Pending returns how many interject messages are queued and not yet
// delivered. It is one atomic load and may be called from any goroutine.
func (s *Signal) Pending() int { return int(s.pending.Load()) }

// SetOnInterject makes f the callback run after each interject message is
// queued; nil removes it. f runs on the sender's goroutine, outside the
// mailbox lock, after the message is queued, so Pending() >= 1 when it
// runs unless the message was already taken. It must be quick and must not
// block: typically it cancels the running step's context or notes the
// interject. It may be replaced at any time, for instance at the start and
// the end of each turn; a sender that raced with the change calls either
// the old or the new f.
func (s *Signal) SetOnInterject(f func()) {
	if f == nil {
		s.onInterject.Store(nil)
		return
	}
	s.onInterject.Store(&f)
}

// queued counts one more interject message; the mailbox calls it with the
// message, under its lock.
func (s *Signal) queued() { s.pending.Add(1) }

// taken counts one interject message out; the mailbox calls it under its
// lock when it removes the message to deliver it.
func (s *Signal) taken() { s.pending.Add(-1) }

// notify runs the callback, if any; the mailbox calls it on the sender's
// goroutine after releasing its lock.
func (s *Signal) notify() {
	if f := s.onInterject.Load(); f != nil {
		(*f)()
	}
}
