package persistence

import (
	"fmt"
	"os"
)

// LockDataDir takes the lock Open takes on the data directory dir,
// creating dir (0700) when missing, for a runtime whose journal lives
// elsewhere (a database) while its home must still have one owner. When
// another process holds it, the error wraps ErrLocked. Call unlock when
// the runtime stops; the kernel releases the lock if the process dies.
func LockDataDir(dir string) (unlock func() error, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	l, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	return l.unlock, nil
}
