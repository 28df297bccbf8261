package procfs_test

import (
	"bufio"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/procfs"
)

// TestTreeWalks: a shell this test starts and the sleep it starts are
// found below this process walking down, and above them walking up.
func TestTreeWalks(t *testing.T) {
	sh := exec.Command("sh", "-c", "sleep 60 & echo $!; wait")
	out, err := sh.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	grandchild, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("grandchild pid %q: %v", line, err)
	}
	t.Cleanup(func() {
		if p, err := os.FindProcess(grandchild); err == nil {
			_ = p.Kill()
		}
		_ = sh.Wait()
	})
	self, child := os.Getpid(), sh.Process.Pid
	below, ok := procfs.Subtree(self)
	if !ok || !slices.Contains(below, child) || !slices.Contains(below, grandchild) {
		t.Errorf("Subtree(self) = %v, %v; want the shell %d and its sleep %d", below, ok, child, grandchild)
	}
	if below, ok := procfs.Subtree(grandchild); !ok || len(below) != 0 {
		t.Errorf("Subtree(sleep) = %v, %v; want none", below, ok)
	}
	if _, ok := procfs.Subtree(1 << 30); ok {
		t.Error("Subtree(a pid that is gone) ok")
	}
	tests := []struct {
		name          string
		pid, ancestor int
		want          bool
	}{
		{"child", child, self, true},
		{"grandchild", grandchild, self, true},
		{"grandchild of its shell", grandchild, child, true},
		{"itself", self, self, false},
		{"its child's", self, child, false},
		{"gone", 1 << 30, self, false},
	}
	for _, tt := range tests {
		if got := procfs.DescendantOf(tt.pid, tt.ancestor); got != tt.want {
			t.Errorf("%s: DescendantOf(%d, %d) = %v, want %v", tt.name, tt.pid, tt.ancestor, got, tt.want)
		}
	}
}
