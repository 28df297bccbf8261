package background

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"
)

// Alive reports whether pid names a live process (a zombie counts: see
// WaitExit).
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// WaitExit waits until pid is gone, up to d or until ctx ends, and reports
// whether it went. An exited child of this process is reaped: kill(pid, 0)
// succeeds on a zombie.
func WaitExit(ctx context.Context, pid int, d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for Alive(pid) && !reapedChild(pid) {
		select {
		case <-deadline.C:
			return false
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
	return true
}

// reapedChild reaps pid if it is an exited child of ours (a daemon
// started by this process, in tests) and reports whether it was.
func reapedChild(pid int) bool {
	var ws syscall.WaitStatus
	got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	return err == nil && got == pid
}

// How a Terminate ended.
const (
	EndedBySIGTERM = "sigterm"
	EndedBySIGKILL = "sigkill"
)

// Terminate ends pid: SIGTERM, then, when it is still there after grace,
// SIGKILL, waiting grace again. It reports which signal ended it, or an
// error when the kill failed or the process survived it.
func Terminate(ctx context.Context, pid int, grace time.Duration) (string, error) {
	if err := syscall.Kill(pid, syscall.SIGTERM); err == nil && WaitExit(ctx, pid, grace) {
		return EndedBySIGTERM, nil
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return "", fmt.Errorf("kill pid %d: %w", pid, err)
	}
	if !WaitExit(ctx, pid, grace) {
		return "", fmt.Errorf("pid %d survived SIGKILL", pid)
	}
	return EndedBySIGKILL, nil
}
