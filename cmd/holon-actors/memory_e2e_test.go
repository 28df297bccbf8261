//go:build linux

package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
)

// TestRuntimeMemoryClosedToItsUser: a process of the runtime's own user
// (as an agent's command is) can read neither the runtime's memory, where
// the model key lives, nor its environ or maps. Run as root, the test runs
// the runtime and the reader as nobody, since root reads every process.
func TestRuntimeMemoryClosedToItsUser(t *testing.T) {
	t.Parallel()
	var cred *syscall.Credential
	dir := t.TempDir()
	if os.Getuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	bin := filepath.Join(dir, "holon-actors")
	src, err := os.Open(binary)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil || dst.Close() != nil {
		t.Fatalf("copy the binary: %v", err)
	}
	script := filepath.Join(dir, "script.json")
	if err := os.WriteFile(script, []byte(`{"steps": [{"text": "hi"}], "then": "echo"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if cred != nil {
		if err := os.Chown(home, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command(bin, "--home", home, "run", "--model", "scripted", "--script", script)
	run.Env = append(os.Environ(), "OPENAI_API_KEY=sk-memory-canary-5e1f0c77")
	run.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	var log strings.Builder
	run.Stdout, run.Stderr = &log, &log
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = run.Process.Kill(); _ = run.Wait() })
	c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
	defer c.Close()
	for deadline := time.Now().Add(e2eWait); ; {
		if st, err := c.RuntimeStatus(context.Background()); err == nil && st.PID == run.Process.Pid {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("runtime not ready:\n%s", log.String())
		}
		time.Sleep(20 * time.Millisecond) // polling a process we do not control
	}
	for _, f := range []string{"maps", "mem", "environ"} {
		read := exec.Command("cat", filepath.Join("/proc", strconv.Itoa(run.Process.Pid), f))
		read.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		if out, err := read.CombinedOutput(); err == nil || !strings.Contains(string(out), "Permission denied") {
			t.Errorf("a process of the runtime's user read its /proc/<pid>/%s (%v): %.80q", f, err, out)
		}
	}
}
