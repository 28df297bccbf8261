// Package control is the runtime's control surface: JSON over HTTP, served
// on the owner's unix socket ($HOLON_HOME/run/control.sock) and, when asked,
// on TCP. It routes operator and program requests to the agents' runtime
// (inspection, prompts, lifecycle commands, answers to the agents'
// questions, runtime status and shutdown) through Runtime, the methods its
// routes call, which *actors.Runtime implements, replays journal events as JSON
// pages or Server-Sent Events with their provenance and operator
// presentation, and has the Go client the CLI uses.
//
// Every route but the public ones (/triggers/, /ingress/) is the
// operator's: it needs the socket or the TCP control token, and it refuses
// the runtime's own tool processes (403 tool_process), whichever way they
// come in: a caller the runtime started (its pid has the runtime among its
// ancestors, read from /proc) or one carrying the run's InstanceEnv. The
// caller is identified once per connection, by SO_PEERCRED on the socket
// and, on TCP, by the local process holding the client's end. Answers and
// cancellations of suspensions record responded_by from that surface,
// never from the body. Wrong TCP tokens are limited per peer (429).
//
// Event streams are capped (Config.MaxEventStreams; one more gets 429) and
// share one encoding of each event: a stream's handler goroutine reads
// pages bounded by size through the server's frame cache, which the last
// stream to close empties. Close ends every stream.
//
// One route table (routes.go) is both what the server registers and the
// source of the OpenAPI document: each entry carries its operation id, the
// Go types of its bodies, its error kinds and examples, and control/apidoc
// generates openapi.json from it (served as GET /openapi.json).
//
// control imports actors, messages and persistence; only cmd imports it.
// It holds no agent state of its own: every answer comes from the runtime
// or the journal, so a client never sees something that is not durable.
package control
