// Package node builds and owns one runtime process's parts: the model
// provider chain, the agents' dependencies, the Badger store, the
// actors.Runtime and the control server on $HOLON_HOME/run/control.sock.
//
// AgentOptions.Deps is the one place the agents' dependencies are built:
// `run` and `once` both use it, so the two cannot drift apart.
// NewModelProvider builds the provider of a model configuration.
//
// Start opens what a run needs in order (run directory, store, runtime,
// recovery, default agent, scrub, control listeners, runtime.json) and
// records a startup failure in run/last-failure.json. The Node owns every
// goroutine it starts: Wait returns when its context ends, a shutdown is
// requested over the control API or a control server stops; Shutdown then
// drains turns in flight within Config.ShutdownTimeout, stops the runtime
// and the store, and leaves the clean-shutdown marker.
//
// node imports actors, control, persistence, providers and secrets; only
// cmd imports node.
package node
