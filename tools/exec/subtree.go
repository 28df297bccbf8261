package exec

import (
	"os"
	"strconv"
	"strings"
)

// subtree lists the descendants of this process, walking
// /proc/<pid>/task/<tid>/children down from it. Only a subreaper's
// subtree holds every descendant (the orphans of a command are re-parented
// to it), so ok is false, and the caller scans all of /proc, when this
// process is not one or the kernel does not list children.
func subtree() (pids []int, ok bool) {
	if !isSubreaper() {
		return nil, false
	}
	self := os.Getpid()
	queue := []int{self}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		dir := "/proc/" + strconv.Itoa(pid) + "/task/"
		tasks, err := os.ReadDir(dir)
		if err != nil {
			if pid == self {
				return nil, false
			}
			continue // it exited meanwhile
		}
		for _, t := range tasks {
			b, err := os.ReadFile(dir + t.Name() + "/children")
			if err != nil {
				if pid == self && os.IsNotExist(err) {
					return nil, false
				}
				continue
			}
			for _, f := range strings.Fields(string(b)) {
				if c, err := strconv.Atoi(f); err == nil {
					pids = append(pids, c)
					queue = append(queue, c)
				}
			}
		}
	}
	return pids, true
}

// allPids lists every process in /proc.
func allPids() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	pids := make([]int, 0, len(entries))
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}
