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
// Before a command starts, the tools check it against Config.Policy (an
// agent's messages.CommandPolicy): the command line is parsed as bash
// would parse it and every executable it names, and with ConfineToRoot
// every literal path, is checked; a refused command never starts and
// answers command_policy_denied. It is a check of the command line, not
// a sandbox: what an allowed program does is not seen (policy.go).
//
// The records the runtime journals about a command (Launch,
// CommandIdentity, OutputFiles) are tools/exec/execspec's, re-exported
// here. exec imports tools, messages, procfs and execspec and nothing else
// from this module;
// outside it, mvdan.cc/sh parses command lines for the policy.
package exec
