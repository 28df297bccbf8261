package background_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/background"
)

// start runs a real process the test owns (and reaps through WaitExit).
func start(t *testing.T, name string, args ...string) int {
	t.Helper()
	cmd := exec.Command(name, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() { _ = cmd.Process.Kill(); background.WaitExit(context.Background(), pid, 5*time.Second) })
	return pid
}

func TestAliveAndWaitExit(t *testing.T) {
	ctx := context.Background()
	if !background.Alive(os.Getpid()) {
		t.Error("Alive(self) = false")
	}
	for _, pid := range []int{0, -1} {
		if background.Alive(pid) {
			t.Errorf("Alive(%d) = true", pid)
		}
	}
	pid := start(t, "sleep", "60")
	if background.WaitExit(ctx, pid, 100*time.Millisecond) {
		t.Fatal("WaitExit on a sleeping process = true, want false after its bound")
	}
	p, _ := os.FindProcess(pid)
	_ = p.Kill()
	// The killed child is a zombie until reaped: WaitExit reaps it.
	if !background.WaitExit(ctx, pid, 30*time.Second) {
		t.Fatal("WaitExit on a killed child = false")
	}
	if background.Alive(pid) {
		t.Errorf("Alive(%d) after WaitExit reaped it = true", pid)
	}
}

// TestTerminateEscalates: a process that ignores SIGTERM gets SIGKILL.
func TestTerminateEscalates(t *testing.T) {
	ctx := context.Background()
	cmd := exec.Command("sh", "-c", `trap "" TERM; echo ready; while :; do sleep 1; done`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() { _ = cmd.Process.Kill(); background.WaitExit(ctx, pid, 5*time.Second) })
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" { // the trap is set
		t.Fatalf("shell said %q, %v", line, err)
	}
	how, err := background.Terminate(ctx, pid, 300*time.Millisecond)
	if err != nil || how != background.EndedBySIGKILL {
		t.Fatalf("Terminate = %q, %v; want it ended by SIGKILL", how, err)
	}
	if background.Alive(pid) {
		t.Errorf("pid %d alive after SIGKILL", pid)
	}
}

func TestTailLines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log")
	var b strings.Builder
	for i := range 10 {
		b.WriteString("line " + strconv.Itoa(i) + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, []byte(strings.Repeat("x\n", 1<<20)+"last\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		n    int
		want []string
	}{
		{"last three", path, 3, []string{"line 7", "line 8", "line 9"}},
		{"more than there are", path, 20, strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")},
		{"none", path, 0, []string{}},
		{"missing file", filepath.Join(dir, "nope"), 5, []string{}},
		{"past the read window", big, 2, []string{"x", "last"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := background.TailLines(tt.path, tt.n); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("TailLines(%d) = %q, want %q", tt.n, got, tt.want)
			}
		})
	}
}
