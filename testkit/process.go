package testkit

import (
	"os"
	"strconv"
	"strings"
)

// GroupLive reports whether process group pgid has a member that is not a
// zombie, read from /proc (Linux). A killed orphan stays a zombie until
// its new parent reaps it, which signal 0 (exec.GroupAlive) still counts;
// a test asking "is anything left running?" asks this instead.
func GroupLive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	want := strconv.Itoa(pgid)
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b) // pid (comm) state ppid pgrp ...; comm may hold spaces and parens
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) >= 3 && f[2] == want && f[0] != "Z" && f[0] != "X" {
			return true
		}
	}
	return false
}
