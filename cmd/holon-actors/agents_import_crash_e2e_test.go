package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/holon-actors/holon-actors/testkit"
)

// TestAgentsImportKilledMidway: a runtime killed (SIGKILL) while an
// import writes leaves no half-made agent: after the restart the agent is
// not listed or reachable, and importing the archive again there is
// refused with a clear error. The import is held in the middle by a FIFO
// where one of its artifacts goes: the runtime has written the journal
// and blocks writing the artifact until the test reads it, so the kill
// lands after the first byte of the artifact, deterministically.
func TestAgentsImportKilledMidway(t *testing.T) {
	t.Parallel()
	homeA, homeB := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	script := writeScript(t, `{"then": "echo"}`)
	a := startRun(t, homeA, "--model", "scripted", "--script", script)
	if code, _, errOut := client(t, homeA, "agents", "create", "worker"); code != 0 {
		t.Fatalf("create = %d %s", code, errOut)
	}
	if code, _, errOut := client(t, homeA, "--agent", "worker", "prompt", "--wait", "remember the plan"); code != 0 {
		t.Fatalf("prompt = %d %s", code, errOut)
	}
	exported := filepath.Join(t.TempDir(), "worker.tar.gz")
	if code, _, errOut := client(t, homeA, "agents", "export", "worker", "-o", exported); code != 0 {
		t.Fatalf("export = %d %s", code, errOut)
	}
	a.stop()
	raw, err := os.ReadFile(exported)
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("notes "), 200<<10) // well past a pipe's buffer
	archive := filepath.Join(t.TempDir(), "with-notes.tar.gz")
	if err := os.WriteFile(archive, testkit.Rearchive(t, raw, func(files map[string][]byte) {
		files["agents/worker/artifacts/notes.txt"] = big
	}), 0o600); err != nil {
		t.Fatal(err)
	}

	fifo := filepath.Join(homeB, "agents", "worker", ".holon", "artifacts", "notes.txt")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	b := startRun(t, homeB, "--model", "scripted", "--script", script)
	imp := exec.Command(binary, "--home", homeB, "agents", "import", archive)
	if err := imp.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = imp.Wait() }()
	f, err := os.OpenFile(fifo, os.O_RDWR, 0) // a writer of our own: Read waits for the runtime's bytes
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Read(make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	b.kill()

	b = startRun(t, homeB, "--model", "scripted", "--script", script)
	if ids := publicAgents(t, homeB); strings.Contains(strings.Join(ids, ","), "worker") {
		t.Fatalf("agents after a restart = %v: the import cut short left worker", ids)
	}
	if code, _, errOut := client(t, homeB, "status", "worker"); code != exitFailure || !strings.Contains(errOut, "no agent") {
		t.Errorf("status worker = %d %q, want no agent", code, errOut)
	}
	if code, _, errOut := client(t, homeB, "agents", "import", exported); code != exitFailure || !strings.Contains(errOut, "not reused") {
		t.Errorf("import again = %d %q, want the id refused as not reused", code, errOut)
	}
	b.stop()
}
