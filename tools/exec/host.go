package exec

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// TaskHandle identifies a managed task for TaskStatus, TaskOutput,
// TaskInput and TaskStop.
type TaskHandle struct {
	TaskID string `json:"task_id"`
	Kind   string `json:"kind"`
}

// Identity returns the identity of spec with its digest.
func Identity(spec ProcessSpec) CommandIdentity {
	return CommandIdentity{
		Cmd: spec.Cmd, CmdDigest: Digest(spec), Workdir: spec.Dir, Shell: spec.Shell,
		Login: spec.Login, TTY: spec.TTY, AcceptsInput: spec.AcceptsInput,
	}
}

// Digest is the machine-comparable identity key of a command: sha256 of
// its command line, working directory, shell, login and tty choices. Two
// startups with one digest are the same command.
func Digest(spec ProcessSpec) string {
	h := sha256.New()
	for _, s := range []string{spec.Cmd, spec.Dir, spec.Shell, strconv.FormatBool(spec.Login), strconv.FormatBool(spec.TTY)} {
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Promotion is a command handed to a TaskHost at its yield deadline.
type Promotion struct {
	Process  *Process
	Identity CommandIdentity
	// InitialOutput is the preview the model was shown at promotion.
	InitialOutput string
}

// TaskHost runs promoted commands as managed command tasks. The actors
// package implements it; it must be safe for concurrent use.
type TaskHost interface {
	// FindRunning returns the handle of a running command task of this
	// agent whose command has digest (see Digest) and workdir, if any.
	FindRunning(ctx context.Context, digest, workdir string) (TaskHandle, bool)
	// Promote takes ownership of a still-running process: from then on the
	// host waits for it, relays input, stops it, closes it and reports its
	// result. It returns the new task's handle; on error the caller keeps
	// ownership and stops the process.
	Promote(ctx context.Context, p Promotion) (TaskHandle, error)
}

// shortCmd is cmd on one line, cut to n bytes, for receipts and summaries.
func shortCmd(cmd string, n int) string {
	s := strings.Join(strings.Fields(cmd), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
