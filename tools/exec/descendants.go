package exec

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// KillDescendants kills every process of a command: the members of its
// process group pgid, if the group is still the command's (see
// KillOrphans), and every process whose environment carries its token,
// which finds those that left the group (setsid, a double fork) as long
// as they kept their environment. Children of this process among them
// (the runtime is a subreaper, so escaped orphans become its children) are
// reaped, except keep, whose owner waits for it. It repeats until a scan
// finds none, so children forked meanwhile are killed too, and returns
// how many processes it killed; ctx bounds the wait.
func KillDescendants(ctx context.Context, pgid int, token string, keep int) (int, error) {
	if token == "" {
		return 0, fmt.Errorf("kill descendants of group %d: a token is needed", pgid)
	}
	killed := make(map[int]bool)
	for {
		victims := carriers(token)
		if pgid > 0 && groupCarries(pgid, token) {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			victims = append(victims, groupMembers(pgid)...)
		}
		fresh := victims[:0]
		for _, pid := range victims {
			if pid != os.Getpid() && !killed[pid] {
				killed[pid] = true
				fresh = append(fresh, pid)
			}
		}
		if len(fresh) == 0 {
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
	if pgid > 0 {
		reapAdopted(groupZombies(pgid), keep)
	}
	return len(killed), nil
}

// killAll kills what is left of the process group and every process that
// left it carrying the token; the shell itself is left to the reaper.
func (p *Process) killAll() {
	KillGroup(p.pgid)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = KillDescendants(ctx, p.pgid, p.token, p.Pid())
}

// carriers lists the live processes whose environment holds token as
// TokenEnv.
func carriers(token string) []int {
	want := []byte(TokenEnv + "=" + token + "\x00")
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && bytes.Contains(append(env, 0), want) {
			out = append(out, pid)
		}
	}
	return out
}

// procStat is the state, parent and group of pid from /proc/<pid>/stat;
// ok is false once it is gone.
func procStat(pid int) (state string, ppid, pgrp int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", 0, 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 {
		return "", 0, 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	pgrp, _ = strconv.Atoi(f[2])
	return f[0], ppid, pgrp, true
}

// awaitDead waits until every pid is gone or a zombie.
func awaitDead(ctx context.Context, pids []int) error {
	t := time.NewTicker(2 * time.Millisecond)
	defer t.Stop()
	for _, pid := range pids {
		for {
			st, _, _, ok := procStat(pid)
			if !ok || st == "Z" || st == "X" {
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
		if st, ppid, _, ok := procStat(pid); ok && ppid == self && (st == "Z" || st == "X") {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
	}
}

// groupZombies lists the zombies of group pgid other than its leader:
// orphans of the command that ended by themselves and, adopted by the
// subreaper runtime, wait to be reaped.
func groupZombies(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == pgid {
			continue
		}
		if st, _, pgrp, ok := procStat(pid); ok && pgrp == pgid && (st == "Z" || st == "X") {
			out = append(out, pid)
		}
	}
	return out
}
