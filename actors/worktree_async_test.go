package actors_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/testkit"
)

// TestWorktreePlanningLeavesTheAgentFree: SpawnAgent's git runs outside
// the agent's Receive. A git on PATH that holds its first run until the
// test lets it go shows the agent answering the operator meanwhile; then
// the child starts in its worktree as usual.
func TestWorktreePlanningLeavesTheAgentFree(t *testing.T) {
	repo := gitRepo(t) // with the real git, before PATH changes
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	started, gate, done := filepath.Join(bin, "started"), filepath.Join(bin, "gate"), filepath.Join(bin, "done")
	for _, fifo := range []string{started, gate} {
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	script := "#!/bin/sh\n" +
		"if [ ! -e '" + done + "' ]; then touch '" + done + "'; echo started > '" + started + "'; cat '" + gate + "' > /dev/null; fi\n" +
		"exec '" + realGit + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("", worktreeSpawn("s1", "Just answer.")),
			testkit.Reply("Delegated."),
			testkit.Reply("Fine."),
		},
		[]testkit.Step{testkit.Reply("Nothing to change.")}, inWorkspace(t, repo))
	f.Prompt("main", "Delegate it.")

	r, err := os.Open(started) // blocks until the held git runs
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(r).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, stateErr := f.Runtime.State(ctx, "main")
	w, err := os.OpenFile(gate, os.O_WRONLY, 0) // lets git go on
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if stateErr != nil {
		t.Fatalf("the agent did not answer while its git ran: %v", stateErr)
	}
	if st.Turn == nil {
		t.Fatal("the agent's turn ended before its SpawnAgent call did")
	}
	res := spawned(t, f.Harness, "main", "s1")
	if res.ChildSupervision == nil || res.ChildSupervision.Worktree == nil {
		t.Fatalf("SpawnAgent result has no worktree: %+v", res)
	}
	endedWorktree(t, f.Harness, "main", res.SupervisionTaskID)
}
