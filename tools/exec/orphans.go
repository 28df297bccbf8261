package exec

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"github.com/holon-actors/holon-actors/procfs"
)

// TokenEnv is the environment variable that carries a Process's Token.
const TokenEnv = "HOLON_PROCESS_TOKEN"

// KillOrphans stops what is left of a command's process group after the
// runtime that started it died: given the persisted pgid and token, it
// kills the group if it still exists and is the command's (a member
// carries the token in its environment), then waits until the group is
// gone. A group id reused by unrelated processes is left alone. It
// returns whether orphans were found; ctx bounds the wait.
func KillOrphans(ctx context.Context, pgid int, token string) (found bool, err error) {
	if pgid <= 0 || token == "" {
		return false, fmt.Errorf("kill orphans of group %d: a pgid and a token are needed", pgid)
	}
	ours := false
	for range 3 { // a scan can miss a process caught mid-fork or mid-exec
		if ours = groupCarries(pgid, token); ours || !GroupAlive(pgid) {
			break
		}
	}
	if !ours {
		return false, nil
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	if err := WaitGroupGone(ctx, pgid); err != nil {
		return true, fmt.Errorf("kill orphans: %w", err)
	}
	return true, nil
}

// groupCarries reports whether a live process of group pgid has token in
// its environment.
func groupCarries(pgid int, token string) bool {
	want := []byte(TokenEnv + "=" + token + "\x00")
	for _, pid := range groupMembers(pgid) {
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err == nil && bytes.Contains(append(env, 0), want) {
			return true
		}
	}
	return false
}

// groupMembers lists the live (not zombie) processes of group pgid, read
// from /proc.
func groupMembers(pgid int) []int {
	pids, _ := procfs.Group(pgid)
	return pids
}

// onlyZombies reports whether /proc shows group pgid with members that
// are all zombies. A scan can miss a process forked while it runs, so it
// is only used where the group can no longer fork: after SIGKILL.
func onlyZombies(pgid int) bool {
	live, zombies := procfs.Group(pgid)
	return len(live) == 0 && zombies > 0
}
