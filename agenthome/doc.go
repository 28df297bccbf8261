// Package agenthome owns what lives in an agent's home directory besides
// the runtime's artifacts: its layout (AGENTS.md, memory/self.md,
// memory/operator.md, notes/, work/, skills/ and the runtime-owned
// .holon/), the templates a new agent's home is made from (an id under the
// templates directory, an absolute directory, or a GitHub tree URL read
// through a configurable API base URL), the built-in templates seeded into
// the templates directory, and the bounded reading of the AGENTS.md
// instruction files the prompt carries.
//
// Everything here is file and network I/O; the agent's actor calls it off
// its Receive (a goroutine it owns), and the prompt is assembled from what
// it returns by the pure agent core.
//
// A home is made whole or not at all: Create builds it in a staging
// directory beside the agents' homes and renames it into place, so a bad
// template, an unreachable URL or a bad skill ref leaves nothing behind.
//
// agenthome imports the standard library only.
package agenthome
