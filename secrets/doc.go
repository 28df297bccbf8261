// Package secrets keeps the runtime's credentials (model keys, the control
// token, webhook secrets, credentials in base URLs) out of what it writes.
//
// A Registry holds every secret value the runtime was configured with;
// its Redact runs at each sink's choke point: the journal and snapshot
// encoder, the log writer, artifact files. Env names which environment
// variables carry credentials, so the commands agents run never inherit
// them, and Handoff passes them from `daemon start` to the background
// runtime through an inherited pipe instead of its environment, where any
// process of the same user could read them in /proc/<pid>/environ.
//
// A Registry is safe for concurrent use. secrets imports the standard
// library only, so every package may use it.
package secrets
