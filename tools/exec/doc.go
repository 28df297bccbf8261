// Package exec runs shell commands for agents: the Process handle that
// owns one command in its own process group (optionally on a real PTY)
// with its output streamed to artifact files, and the ExecCommand and
// ExecCommandBatch tools built on it.
//
// A Process writes its output straight to files, so capturing any amount
// of output takes constant memory; previews are read back from the files
// head and tail. Each Process owns one goroutine that reaps the command
// (and, on a PTY, one that copies the terminal to its file); Close waits
// for both. A command still running when its yield deadline passes is not
// killed: ExecCommand hands the Process to a TaskHost, which from then on
// owns it (waits for it, feeds it, stops it). Process group ids are
// exposed so a restarted runtime can find and kill orphans (KillGroup).
//
// exec imports tools and messages and nothing else from this module.
package exec
