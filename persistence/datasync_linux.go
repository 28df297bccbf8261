package persistence

import (
	"os"

	"golang.org/x/sys/unix"
)

// dataSync makes f's written data durable without its metadata (times),
// which is all a file overwritten in place within its length needs.
func dataSync(f *os.File) error { return unix.Fdatasync(int(f.Fd())) }
