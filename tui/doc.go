// Package tui is the operator console: a terminal client of the control
// surface that shows one agent's conversation live and sends it prompts,
// answers and lifecycle actions.
//
// The console owns no runtime state. It reads through Control (which a
// *control.Client satisfies), paints the newest page of the selected
// agent's events, then follows its event stream from that page's
// event_seq, resuming from the last seq it showed when the stream breaks
// (a daemon restart). Closing it sends nothing to the runtime.
//
// Model is a Bubble Tea model: Update and View run on the program's
// goroutine only. The one goroutine it starts, the follower of the
// selected agent's stream (feed.go), is owned by the model: switching
// agents or quitting cancels it and waits for it to end.
//
// tui imports control, actors and messages for their wire types; nothing
// in this module imports tui except cmd/holon-actors and bench.
package tui
