// Package transport holds the transport actors: one actor per provider
// candidate (one model ref behind one vendor transport), under one
// transports supervisor, and the providers.Provider agents see for a
// candidate (NewProvider), which sends each call to its actor.
//
// A transport actor never blocks: it hands each call to a worker goroutine
// it owns, and a worker that finished waits a while for the next call.
// A call ends with its caller's context or with the actor; the actor's
// Stopping cancels the calls in flight and waits for every worker, so no
// worker outlives its actor. A provider's panic fails its call only
// (CompleteSafely).
//
// transport imports messages, providers and protoactor's actor package, and
// nothing else from this module; in particular never actors.
package transport
