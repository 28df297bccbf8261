package background

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/secrets"
)

// Spawn's errors, matched with errors.Is.
var (
	// ErrExited is returned when the process exited before its socket
	// answered.
	ErrExited = errors.New("the runtime exited during startup")
	// ErrNoAnswer is returned when the socket did not answer within
	// Spec.StartWait (the process is killed).
	ErrNoAnswer = errors.New("the runtime did not answer")
)

// Spec is a background runtime to start.
type Spec struct {
	// Path and Args are the program and its arguments; Env is its whole
	// environment.
	Path string
	Args []string
	Env  []string
	// Secrets reach the process through an inherited pipe
	// (secrets.Handoff), never its environment.
	Secrets map[string]string
	// Output is the file its stdout and stderr are appended to.
	Output string
	// Socket is the control socket it serves; StartWait bounds the wait
	// for it to answer with the process's pid.
	Socket    string
	StartWait time.Duration
}

// Spawn starts s detached from this terminal (in its own session) and
// waits until its control socket answers with its pid, returning that
// status. It fails with ErrExited when the process exits first (reaping
// it), ErrNoAnswer when StartWait passes (killing it), or ctx's error.
func Spawn(ctx context.Context, s Spec) (control.RuntimeStatus, error) {
	var none control.RuntimeStatus
	if err := os.MkdirAll(filepath.Dir(s.Output), 0o700); err != nil {
		return none, err
	}
	out, err := os.OpenFile(s.Output, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return none, fmt.Errorf("open %s: %w", s.Output, err)
	}
	defer out.Close()
	cmd := exec.Command(s.Path, s.Args...)
	cmd.Stdout, cmd.Stderr, cmd.Env = out, out, s.Env
	handoff, err := secrets.NewHandoff(cmd, s.Secrets)
	if err != nil {
		return none, err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // survives this terminal
	if err := cmd.Start(); err != nil {
		handoff.Close()
		return none, fmt.Errorf("start the runtime: %w", err)
	}
	if err := handoff.Send(); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return none, err
	}
	// exited gets the child's end: sent once by the reaping goroutine,
	// which ends with the child; buffered so it never blocks.
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return waitAnswer(ctx, s, cmd.Process, exited)
}

// waitAnswer polls the control socket until it answers with p's pid.
func waitAnswer(ctx context.Context, s Spec, p *os.Process, exited <-chan error) (control.RuntimeStatus, error) {
	var none control.RuntimeStatus
	client := control.NewUnixClient(s.Socket)
	defer client.Close()
	deadline := time.NewTimer(s.StartWait)
	defer deadline.Stop()
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		if st, err := client.RuntimeStatus(ctx); err == nil && st.PID == p.Pid {
			return st, nil
		}
		select {
		case err := <-exited:
			return none, fmt.Errorf("%w (%v)", ErrExited, err)
		case <-deadline.C:
			_ = p.Kill()
			return none, fmt.Errorf("%w on %s within %s", ErrNoAnswer, s.Socket, s.StartWait)
		case <-ctx.Done():
			return none, ctx.Err()
		case <-tick.C:
		}
	}
}
