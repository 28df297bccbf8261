// Package timers holds the timer service: one actor for the whole runtime
// that arms timers by (agent id, timer id) on an injected clock and calls
// back with a Fire, whose FireID is deterministic, when each comes due.
//
// The service's state is touched only inside its Receive. It owns at most
// one clock.AfterFunc at a time, whose callback only sends the actor a
// message; stopping the actor stops it, so no goroutine of the package
// outlives the actor. The fire callback runs on the actor's goroutine and
// must not block. The service is not durable: callers journal their timers
// and schedule them again after a restart of the process.
//
// timers imports protoactor's actor package and clockwork, and nothing from
// this module; in particular never actors.
package timers
