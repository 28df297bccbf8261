// Package execspec is the data a runtime keeps about a command of the
// exec tools: its identity (CommandIdentity), the output files it writes
// and, for a gated command, its Launch, what the runtime journals before
// the command runs. It holds no process code, so an agent's pure state
// can hold these records without taking in os/exec; package exec
// re-exports each name (exec.Launch is execspec.Launch).
//
// execspec imports nothing from this module.
package execspec

import "time"

// TaskKindCommand is the task kind of a promoted command.
const TaskKindCommand = "command_task"

// CommandIdentity is the identity-carrying metadata of a command: what
// TaskStatus shows as task.command and what duplicate detection compares
// (through exec.Digest).
type CommandIdentity struct {
	Cmd          string `json:"cmd"`
	CmdDigest    string `json:"cmd_digest"`
	Workdir      string `json:"workdir"`
	Shell        string `json:"shell,omitempty"`
	Login        bool   `json:"login"`
	TTY          bool   `json:"tty"`
	AcceptsInput bool   `json:"accepts_input"`
}

// OutputFiles names the artifacts a process writes: Stdout and Stderr, or
// Combined alone for a PTY. Names are relative to the tools.ArtifactDir.
type OutputFiles struct {
	Stdout   string `json:"stdout,omitempty"`
	Stderr   string `json:"stderr,omitempty"`
	Combined string `json:"combined,omitempty"`
}

// Launch is the identity of a gated command, what the runtime makes
// durable before it releases the command (see exec.StartGated): enough for a
// restarted runtime to find every process of it (its group, and every
// process whose environment carries its token, which also finds those
// that left the group) and to read how it ended and what it wrote.
type Launch struct {
	ExecID string `json:"exec_id"`
	Cmd    string `json:"cmd"`
	Pid    int    `json:"pid"`
	Pgid   int    `json:"pgid"`
	// StartTicks is the start time of Pid in clock ticks since boot, as
	// /proc/<pid>/stat shows it: a pid reused after a reboot or by another
	// process has another.
	StartTicks uint64      `json:"start_ticks,omitempty"`
	Token      string      `json:"token"`
	Output     OutputFiles `json:"output"`
	// ExitFile is the artifact the wrapper writes the command's exit
	// status to when it ends.
	ExitFile string    `json:"exit_file"`
	Started  time.Time `json:"started"`
}
