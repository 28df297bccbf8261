package exec

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/holon-actors/holon-actors/procfs"
)

// WaitingForInput reports whether a process of the command's group is
// blocked reading its standard input (a read on fd 0, as Linux shows in
// /proc/<pid>/syscall): the command waits for TaskInput. It is false for
// a command without AcceptsInput (its stdin is /dev/null), and whenever
// /proc cannot tell (another OS, or no access to the process).
func (p *Process) WaitingForInput() bool {
	if !p.spec.AcceptsInput {
		return false
	}
	live, _ := procfs.Group(p.pgid)
	for _, pid := range live {
		if readingStdin(pid) {
			return true
		}
	}
	return false
}

// readingStdin reports a process blocked in read(0, …).
func readingStdin(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/syscall")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b)) // "nr arg0 arg1 …", or "running"
	return len(f) >= 2 && f[0] == strconv.Itoa(syscall.SYS_READ) && f[1] == "0x0"
}
