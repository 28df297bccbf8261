package bench

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// clockTick is the unit of /proc/<pid>/stat's CPU times: USER_HZ, 100 on
// every Linux architecture Go supports.
const clockTick = 10 * time.Millisecond

// processCPU is the CPU time (user and system) process pid has used, from
// /proc/<pid>/stat; 0 and an error where it cannot be read.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := bytes.Fields(b[i+1:]) // f[0] is field 3 (state): utime is field 14, stime 15
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	var total time.Duration
	for _, s := range f[11:13] {
		n, err := strconv.ParseUint(string(s), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		total += time.Duration(n) * clockTick
	}
	return total, nil
}
