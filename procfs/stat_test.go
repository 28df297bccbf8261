package procfs_test

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/holon-actors/holon-actors/procfs"
)

// TestParseStat: moved from control's TestStatPPID with its cases, plus
// the fields the runtime's process scans read.
func TestParseStat(t *testing.T) {
	tests := []struct {
		name, stat string
		want       int
		wantErr    bool
	}{
		{"plain", "14973 (cat) R 14968 14968 4556 0 -1 4194304", 14968, false},
		{"comm with spaces and parentheses", "77 (a) b (c)) S 12 77 77 0", 12, false},
		{"no comm", "77 S 12", 0, true},
		{"truncated", "77 (x) S", 0, true},
		{"not a number", "77 (x) S ppid", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := procfs.ParseStat([]byte(tt.stat))
			got := st.PPID
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Fatalf("ParseStat(%q).PPID = %d, %v; want %d, error %v", tt.stat, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !errors.Is(err, procfs.ErrMalformed) {
				t.Errorf("error %v does not wrap ErrMalformed", err)
			}
		})
	}
	full := "4242 (my (odd) cmd) Z 1 4240 4240 0 -1 4194560 108 0 0 0 0 0 0 0 20 0 1 0 987654 0 0"
	st, err := procfs.ParseStat([]byte(full))
	if err != nil || st != (procfs.Stat{State: "Z", PPID: 1, PGRP: 4240, Start: 987654}) || !st.Exited() {
		t.Errorf("ParseStat(full line) = %+v, %v", st, err)
	}
}

// TestReadStatAndGroup reads real processes: this one, and a child in a
// group of its own, live, then a zombie, then gone.
func TestReadStatAndGroup(t *testing.T) {
	self, err := procfs.ReadStat(os.Getpid())
	if err != nil || self.PPID != os.Getppid() || self.Start == 0 || self.Exited() {
		t.Fatalf("ReadStat(self) = %+v, %v", self, err)
	}
	if !slices.Contains(procfs.Pids(), os.Getpid()) {
		t.Error("Pids() lacks this process")
	}
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	st, err := procfs.ReadStat(pid)
	if err != nil || st.PPID != os.Getpid() || st.PGRP != pid || st.Start < self.Start {
		t.Fatalf("ReadStat(child) = %+v, %v", st, err)
	}
	if live, exited := procfs.Group(pid); !slices.Equal(live, []int{pid}) || exited != 0 {
		t.Fatalf("Group(child's) = %v, %d; want the child live", live, exited)
	}
	// Killed and not yet reaped, it is a zombie: waitid with WNOWAIT
	// waits for the exit and leaves the child for Wait.
	_ = cmd.Process.Kill()
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
		t.Fatalf("waitid: %v", err)
	}
	if live, exited := procfs.Group(pid); len(live) != 0 || exited != 1 {
		t.Errorf("Group(killed child's) = %v, %d; want one exited member", live, exited)
	}
	_ = cmd.Wait()
	if _, err := procfs.ReadStat(pid); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadStat(reaped child) = %v, want os.ErrNotExist", err)
	}
}
