package secrets

import (
	"fmt"
	"syscall"
)

// Undumpable marks this process not dumpable (PR_SET_DUMPABLE 0): its
// /proc/<pid>/mem, environ and maps become root's, and it cannot be
// ptrace-attached, so another process of the same user (an agent's
// command) cannot read the secrets out of its memory. Its commands are
// dumpable again from their exec on.
func Undumpable() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_DUMPABLE, 0, 0); errno != 0 {
		return fmt.Errorf("mark the process not dumpable: %w", errno)
	}
	return nil
}
