// Package tools owns what an agent can do besides talking: the Tool
// interface and its optional abilities, the registry, argument schemas
// derived from Go structs, the canonical result envelope with its family
// renderers, artifacts and head/tail truncation, and the built-in tools.
//
// A Tool is shared by every agent that has it, so it must be safe for
// concurrent use and keep no per-call state; a call's side effects are
// bounded by the context it receives and stop when it is cancelled. The
// registry is immutable once built: adding tools returns a new one.
//
// tools imports messages and nothing else from this module: never
// persistence, providers, supervision, actors, cmd or testkit, and not
// protoactor. Tool execution is scheduled by actors, not by tools.
package tools
