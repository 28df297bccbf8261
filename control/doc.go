// Package control is the runtime's control surface: JSON over HTTP, served
// on the owner's unix socket ($HOLON_HOME/run/control.sock) and, when asked,
// on TCP. It routes operator and program requests to an actors.Runtime
// (inspection, prompts, lifecycle commands, answers to the agents'
// questions, runtime status and shutdown), replays journal events as JSON
// pages or Server-Sent Events with their provenance and operator
// presentation, and has the Go client the CLI uses.
//
// Answers and cancellations of suspensions are operator routes: they need
// the socket or the TCP control token, and nothing under the public
// prefixes (/triggers/, /ingress/) reaches them.
//
// Event streams are capped (Config.MaxEventStreams; one more gets 429) and
// share one encoding of each event: a stream's handler goroutine reads
// pages bounded by size through the server's frame cache, which the last
// stream to close empties. Close ends every stream.
//
// control imports actors, messages and persistence; only cmd imports it.
// It holds no agent state of its own: every answer comes from the runtime
// or the journal, so a client never sees something that is not durable.
package control
