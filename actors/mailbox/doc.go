// Package mailbox holds the agents' mailbox: four FIFO bands of user
// messages (interject > next > normal > background), chosen by a
// message's Priority (Prioritized), behind protoactor's actor.Mailbox
// contract; and Signal, which counts the interject messages still queued.
//
// Senders post from any goroutine. The mailbox runs on its dispatcher on
// one goroutine at a time, the one that won the idle→running transition,
// and only while it holds messages; Prioritized.Priority runs on the
// sender's goroutine and must not block. The mailbox starts no goroutine
// of its own.
//
// mailbox imports messages (for Priority) and protoactor's actor package,
// and nothing else from this module; in particular never actors, so the
// runtime's agents, and every other actor, can use it.
package mailbox
