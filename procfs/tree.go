package procfs

import (
	"os"
	"strconv"
	"strings"
)

// maxAncestry bounds a walk up the process tree (pid namespaces are far
// shallower; the bound only guards against a loop read mid-reparent).
const maxAncestry = 4096

// DescendantOf reports whether process pid was started, directly or not,
// by process ancestor: ancestor is on pid's parent chain. A process is not
// its own descendant, and a process that is gone is nobody's.
func DescendantOf(pid, ancestor int) bool {
	for range maxAncestry {
		st, err := ReadStat(pid)
		if err != nil || st.PPID <= 0 {
			return false
		}
		if st.PPID == ancestor {
			return true
		}
		if st.PPID == 1 {
			return false
		}
		pid = st.PPID
	}
	return false
}

// Subtree lists the descendants of root, walking
// /proc/<pid>/task/<tid>/children down from it. ok is false when root's
// children cannot be listed (root is gone, or the kernel does not list
// children). Only a subreaper's subtree holds every process it started:
// elsewhere orphans are re-parented out of it.
func Subtree(root int) (pids []int, ok bool) {
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		dir := Root + "/" + strconv.Itoa(pid) + "/task/"
		tasks, err := os.ReadDir(dir)
		if err != nil {
			if pid == root {
				return nil, false
			}
			continue // it exited meanwhile
		}
		for _, t := range tasks {
			b, err := os.ReadFile(dir + t.Name() + "/children")
			if err != nil {
				if pid == root && os.IsNotExist(err) {
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
