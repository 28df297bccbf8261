// Package exec runs shell commands for agents: the Process handle that
// owns one command in its own process group (optionally on a real PTY),
// and the ExecCommand and ExecCommandBatch tools built on it.
//
// A Process keeps each output stream in memory up to 64 KiB and writes
// the rest to its artifact file, so capturing any amount of output takes
// bounded memory; previews are the head and tail of what was written.
// A command is done when its shell has exited and its output has ended:
// a background child that keeps the output open keeps it running. Each
// Process owns one reaper goroutine and one copier per stream; Close
// waits for them.
//
// A command still running when its yield deadline passes is not killed:
// ExecCommand spills its output to files and hands the Process to a
// TaskHost, which from then on owns it (waits for it, feeds it, stops it
// with Stop: SIGTERM to the group, then SIGKILL). Every command carries a
// random token in its environment; with the persisted pgid it lets a
// restarted runtime kill the command's orphans and nothing else
// (KillOrphans).
//
// exec imports tools and messages and nothing else from this module.
package exec
