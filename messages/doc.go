// Package messages is the vocabulary of holon-actors: the message envelope an
// agent admits (kinds, origins, trust and authority labels, priorities,
// bodies), the agent, closure and brief enums, and the journal events with
// their typed payloads.
//
// Everything here is pure data. Nothing performs I/O, starts goroutines or
// holds resources; the only shared state is the monotonic clock behind NewID.
// Every type has a stable JSON form with snake_case keys, pinned by the golden
// files in testdata/, and the shape maps 1:1 onto messages.proto so the same
// values can later travel over the Proto.Actor remote protocol. Enums are
// typed strings whose JSON decoding rejects values outside the spec's set.
//
// Values are immutable once sent: a MessageEnvelope, Event or payload handed
// to another actor, a journal or a channel must not be mutated afterwards
// (copy the maps, slices and json.RawMessage fields first if you need to
// change one). Normalize mutates only the envelope it is called on, before it
// is sent. All functions are safe for concurrent use.
//
// messages imports only the standard library. It must never import
// persistence, actors, providers, tools, supervision, zerolog or protoactor:
// every other package depends on it, not the other way round.
package messages
