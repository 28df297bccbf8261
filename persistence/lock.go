package persistence

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofrs/flock"
)

// lockFileName is the lock file inside a data directory. It holds the pid of
// the process that owns the directory, for the error the next one gets.
const lockFileName = "holon.lock"

// dirLock is an exclusive advisory lock on a data directory. The kernel
// releases it when the process dies, so a SIGKILL never leaves it stale.
type dirLock struct{ fl *flock.Flock }

// lockDir takes the directory's lock without blocking. When another process
// holds it, the error wraps ErrLocked and names the directory and its pid.
func lockDir(dir string) (*dirLock, error) {
	path := filepath.Join(dir, lockFileName)
	fl := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o600))
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if !ok {
		return nil, &LockedError{Dir: dir, PID: lockOwner(path)}
	}
	if err := os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		_ = fl.Unlock()
		return nil, fmt.Errorf("lock %s: record pid: %w", dir, err)
	}
	return &dirLock{fl: fl}, nil
}

// LockedError is returned by Open when another process holds the data
// directory. It wraps ErrLocked.
type LockedError struct {
	Dir string
	PID int // the owner's pid, 0 when its lock file does not say
}

func (e *LockedError) Error() string {
	owner := "another process"
	if e.PID > 0 {
		owner = "pid " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("%v: %s is used by %s", ErrLocked, e.Dir, owner)
}

func (e *LockedError) Unwrap() error { return ErrLocked }

// lockOwner reads the pid the owner wrote into the lock file, or 0.
func lockOwner(path string) int {
	b, err := os.ReadFile(path)
	if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil && pid > 0 {
		return pid
	}
	return 0
}

func (l *dirLock) unlock() error { return l.fl.Unlock() }

// LockHolder reports whether a process holds the data directory dir, and
// its pid when the lock file says (0 otherwise), without keeping the lock:
// a probe for daemon tooling that must not trust a recorded pid the kernel
// may have reused. A missing directory is not held.
func LockHolder(dir string) (pid int, held bool, err error) {
	path := filepath.Join(dir, lockFileName)
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return 0, false, nil
	}
	fl := flock.New(path, flock.SetFlag(os.O_RDWR), flock.SetPermissions(0o600))
	ok, err := fl.TryLock()
	if err != nil {
		return 0, false, fmt.Errorf("probe the lock of %s: %w", dir, err)
	}
	if ok {
		return 0, false, fl.Unlock()
	}
	return lockOwner(path), true, nil
}
