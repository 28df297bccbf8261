package procfs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Root is where the kernel's process table is mounted.
const Root = "/proc"

// ErrMalformed is wrapped by ParseStat for a line it cannot read.
var ErrMalformed = errors.New("procfs: malformed stat line")

// Stat is what /proc/<pid>/stat says of a process.
type Stat struct {
	// State is the one-letter state: R, S, D, T, Z (zombie), X (dead)...
	State string
	PPID  int
	// PGRP is the process group, 0 when the line stops before it.
	PGRP int
	// Start is the start time in clock ticks since boot, 0 when the line
	// stops before it: with the pid, it names one process across pid reuse.
	Start uint64
}

// Exited reports whether the process has ended: a zombie waiting to be
// reaped, or dead.
func (s Stat) Exited() bool { return s.State == "Z" || s.State == "X" }

// ParseStat parses a /proc/<pid>/stat line: "pid (comm) state ppid pgrp
// …", where comm may hold spaces and parentheses. A line without the
// command, the state or a numeric parent wraps ErrMalformed.
func ParseStat(line []byte) (Stat, error) {
	i := bytes.LastIndexByte(line, ')')
	if i < 0 {
		return Stat{}, fmt.Errorf("%w: no command field", ErrMalformed)
	}
	f := strings.Fields(string(line[i+1:])) // from field 3, state
	if len(f) < 2 {
		return Stat{}, fmt.Errorf("%w: no parent pid field", ErrMalformed)
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return Stat{}, fmt.Errorf("%w: parent pid %q: %v", ErrMalformed, f[1], err)
	}
	st := Stat{State: f[0], PPID: ppid}
	if len(f) > 2 {
		st.PGRP, _ = strconv.Atoi(f[2])
	}
	if len(f) > 19 {
		st.Start, _ = strconv.ParseUint(f[19], 10, 64)
	}
	return st, nil
}

// ReadStat reads and parses pid's stat line; a process that is gone (or
// not visible) is an error wrapping os.ErrNotExist.
func ReadStat(pid int) (Stat, error) {
	b, err := os.ReadFile(Root + "/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	return ParseStat(b)
}

// Pids lists every process in the table.
func Pids() []int {
	entries, err := os.ReadDir(Root)
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

// Group lists the processes of group pgid: the live ones' pids and the
// number of those that have exited (zombies not yet reaped).
func Group(pgid int) (live []int, exited int) {
	for _, pid := range Pids() {
		st, err := ReadStat(pid)
		if err != nil || st.PGRP != pgid {
			continue
		}
		if st.Exited() {
			exited++
		} else {
			live = append(live, pid)
		}
	}
	return live, exited
}
