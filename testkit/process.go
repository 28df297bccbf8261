package testkit

import "github.com/holon-actors/holon-actors/procfs"

// GroupLive reports whether process group pgid has a member that is not a
// zombie, read from /proc (Linux). A killed orphan stays a zombie until
// its new parent reaps it, which signal 0 (exec.GroupAlive) still counts;
// a test asking "is anything left running?" asks this instead.
func GroupLive(pgid int) bool {
	live, _ := procfs.Group(pgid)
	return len(live) > 0
}
