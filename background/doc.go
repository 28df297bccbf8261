// Package background supervises a background runtime process from the
// command that starts or stops it: Spawn starts it detached (its own
// session, output appended to a file, credentials handed over through an
// inherited pipe, never its environment) and waits until its control
// socket answers with its pid; Terminate escalates from SIGTERM to
// SIGKILL; Alive and WaitExit watch a pid; TailLines reads the end of a
// log.
//
// Spawn starts one goroutine, which waits for the child: it reaps a child
// that exits during the wait, and otherwise lives on with the detached
// child until it exits or this process does (the starting command exits
// right after). background imports control (for the status the socket answers)
// and secrets; only cmd imports it.
package background
