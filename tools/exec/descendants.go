package exec

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/holon-actors/holon-actors/procfs"
)

// KillDescendants kills every process of a command: the members of its
// process group pgid, if the group is still the command's (a member
// carries its token), and every process whose environment carries its
// token, which finds those that left the group (setsid, a double fork) as
// long as they kept their environment. since is the command's start time
// in clock ticks (Launch.StartTicks; 0 when unknown): processes started
// before it cannot be the command's and are not looked at. Children of
// this process among them (the runtime is a subreaper, so escaped
// orphans become its children) are reaped, except keep, whose owner waits
// for it. It repeats until a scan finds none, so children forked
// meanwhile are killed too, and returns how many processes it killed; ctx
// bounds the wait.
func KillDescendants(ctx context.Context, pgid int, token string, since uint64, keep int) (int, error) {
	return killDescendants(ctx, pgid, token, since, keep, false)
}

// killDescendants is KillDescendants; own looks only at this process's
// own subtree when it is a subreaper (a live runtime killing what is left
// of its own command), not at every process.
func killDescendants(ctx context.Context, pgid int, token string, since uint64, keep int, own bool) (int, error) {
	if token == "" {
		return 0, fmt.Errorf("kill descendants of group %d: a token is needed", pgid)
	}
	killed := make(map[int]bool)
	for {
		victims, zombies := related(pgid, token, since, own)
		fresh := victims[:0]
		for _, pid := range victims {
			if pid != os.Getpid() && !killed[pid] {
				killed[pid] = true
				fresh = append(fresh, pid)
			}
		}
		if len(fresh) == 0 {
			reapAdopted(zombies, keep)
			break
		}
		for _, pid := range fresh {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if err := awaitDead(ctx, fresh); err != nil {
			return len(killed), fmt.Errorf("kill descendants of %s: %w", TokenEnv, err)
		}
		reapAdopted(fresh, keep)
	}
	return len(killed), nil
}

// killAll kills what is left of the process group and, for a gated
// command, every process that left it carrying the token; the shell itself
// is left to the reaper.
func (p *Process) killAll() {
	KillGroup(p.pgid)
	if p.exitFile == "" {
		return
	}
	select {
	case <-p.done:
		if p.leftNothing {
			return
		}
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = killDescendants(ctx, p.pgid, p.token, p.ticks, p.Pid(), true)
}

// related scans /proc once for the processes of a command started at tick
// since: the live ones (members of group pgid if one of them carries
// token, and every process carrying token) and the zombies of the group
// other than its leader. own limits the scan to this process's subtree
// when it is a subreaper.
func related(pgid int, token string, since uint64, own bool) (live, zombies []int) {
	want := []byte(TokenEnv + "=" + token + "\x00")
	pids, ok := []int(nil), false
	if own {
		pids, ok = subtree()
	}
	if !ok {
		pids = procfs.Pids()
	}
	var members []int
	ours := false
	for _, pid := range pids {
		st, err := procfs.ReadStat(pid)
		if err != nil || st.Start < since {
			continue
		}
		pgrp := st.PGRP
		if st.Exited() {
			if pgrp == pgid && pid != pgid {
				zombies = append(zombies, pid)
			}
			continue
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		carries := err == nil && bytes.Contains(append(env, 0), want)
		switch {
		case pgid > 0 && pgrp == pgid:
			members = append(members, pid)
			ours = ours || carries
		case carries:
			live = append(live, pid)
		}
	}
	if ours {
		live = append(live, members...)
	}
	return live, zombies
}

// awaitDead waits until every pid is gone or a zombie.
func awaitDead(ctx context.Context, pids []int) error {
	t := time.NewTicker(2 * time.Millisecond)
	defer t.Stop()
	for _, pid := range pids {
		for {
			st, err := procfs.ReadStat(pid)
			if err != nil || st.Exited() {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("process %d still running: %w", pid, ctx.Err())
			case <-t.C:
			}
		}
	}
	return nil
}

// reapAdopted reaps the pids that are zombie children of this process,
// except keep.
func reapAdopted(pids []int, keep int) {
	self := os.Getpid()
	for _, pid := range pids {
		if pid == keep {
			continue
		}
		if st, err := procfs.ReadStat(pid); err == nil && st.PPID == self && st.Exited() {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
	}
}
