package exec

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// BecomeSubreaper makes this process the child subreaper of its
// descendants (PR_SET_CHILD_SUBREAPER): a process that leaves its
// command's group and parent (setsid, a double fork) is re-parented to it
// rather than to init, so it stays a descendant of the runtime, and the
// runtime reaps it when it kills it (KillDescendants).
func BecomeSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("become child subreaper: %w", err)
	}
	return nil
}

// isSubreaper reports whether this process is a child subreaper.
func isSubreaper() bool {
	var v int32
	err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&v)), 0, 0, 0)
	return err == nil && v != 0
}
