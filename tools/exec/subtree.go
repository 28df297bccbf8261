package exec

import (
	"os"

	"github.com/holon-actors/holon-actors/procfs"
)

// subtree lists the descendants of this process. Only a subreaper's
// subtree holds every descendant (the orphans of a command are re-parented
// to it), so ok is false, and the caller scans all of /proc, when this
// process is not one or the kernel does not list children.
func subtree() (pids []int, ok bool) {
	if !isSubreaper() {
		return nil, false
	}
	return procfs.Subtree(os.Getpid())
}
