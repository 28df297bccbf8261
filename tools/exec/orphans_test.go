package exec_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// daemonEnv makes the test binary act as a daemon that starts a command
// and prints its pgid and token, then waits to be killed.
const daemonEnv = "HOLON_EXEC_TEST_DAEMON"

func TestMain(m *testing.M) {
	if dir := os.Getenv(daemonEnv); dir != "" {
		runDaemon(dir)
		return
	}
	os.Exit(m.Run())
}

func runDaemon(dir string) {
	arts, err := tools.NewArtifactDir(filepath.Join(dir, "artifacts"))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	p, err := exec.Start(exec.ProcessSpec{Cmd: "sleep 1000 & exec sleep 1000", Dir: dir}, arts, "cmd_1")
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println(p.Pgid(), p.Token())
	select {} // until SIGKILL
}

// TestOrphansAfterDaemonKilled: the daemon is SIGKILLed while its command
// runs; the command's group outlives it; a restarted runtime with only the
// persisted pgid and token finds the orphans and kills them all.
func TestOrphansAfterDaemonKilled(t *testing.T) {
	dir := t.TempDir()
	daemon := osexec.Command(os.Args[0], "-test.run=^$")
	daemon.Env = append(os.Environ(), daemonEnv+"="+dir)
	out, err := daemon.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = daemon.Process.Kill()
		t.Fatalf("daemon: %v %q", err, line)
	}
	var pgid int
	var token string
	if _, err := fmt.Sscan(strings.TrimSpace(line), &pgid, &token); err != nil {
		t.Fatalf("daemon said %q", line)
	}
	t.Cleanup(func() { exec.KillGroup(pgid) })
	if err := daemon.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = daemon.Wait()
	if !exec.GroupAlive(pgid) {
		t.Fatal("the command died with the daemon; nothing to recover")
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if found, err := exec.KillOrphans(ctx, pgid, "another-token"); found || err != nil {
		t.Fatalf("KillOrphans with a wrong token = %v, %v; want the group left alone", found, err)
	}
	if !exec.GroupAlive(pgid) {
		t.Fatal("a group without the token was killed")
	}
	found, err := exec.KillOrphans(ctx, pgid, token)
	if !found || err != nil {
		t.Fatalf("KillOrphans = %v, %v", found, err)
	}
	if err := exec.WaitGroupGone(ctx, pgid); err != nil {
		t.Fatalf("orphans left: %v", err)
	}
	if found, err := exec.KillOrphans(ctx, pgid, token); found || err != nil {
		t.Fatalf("second KillOrphans = %v, %v", found, err)
	}
}
