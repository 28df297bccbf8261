package background

import (
	"bufio"
	"io"
	"os"
)

// tailWindow bounds how much of a file TailLines reads.
const tailWindow = 1 << 20

// TailLines returns the last n lines of path, reading at most its last
// MiB; a missing file has none.
func TailLines(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return []string{}
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > tailWindow {
		_, _ = f.Seek(-tailWindow, io.SeekEnd)
	}
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), tailWindow)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	if lines == nil {
		lines = []string{}
	}
	return lines
}
