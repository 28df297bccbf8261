// Package llm is the provider-neutral vocabulary of a model round: the
// Request (prompt frame, replayable conversation, tool catalog), its
// conversation Items and ToolSpecs, and how every transport renders them
// (ItemText, Provenance, SystemText, Arguments).
//
// It is data and pure functions: an agent's state keeps its conversation
// in these types and builds its requests from them without taking in the
// providers' I/O (HTTP, clocks, logging). providers re-exports each name
// (providers.Request is llm.Request), so transports and callers may use
// either.
//
// llm imports messages and nothing else from this module.
package llm
