package bench

import (
	"io/fs"
	"syscall"
)

// allocatedBytes is the disk a file takes: its allocated 512-byte blocks
// where the system reports them, else its length.
func allocatedBytes(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return info.Size()
}
