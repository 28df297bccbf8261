package actors_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools/task"
	"github.com/holon-actors/holon-actors/tools/worktree"
)

// heldGit puts a git first on PATH that holds its first run with sub as
// its subcommand (git -C dir sub ...) until release is called; started
// returns once that run is held. Other runs are the real git's. The
// repository must be made before (with the real git).
func heldGit(t *testing.T, sub string) (started, release func()) {
	t.Helper()
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	ready, gate, done := filepath.Join(bin, "started"), filepath.Join(bin, "gate"), filepath.Join(bin, "done")
	for _, fifo := range []string{ready, gate} {
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	script := "#!/bin/sh\n" +
		"if [ \"$1\" = -C ] && [ \"$3\" = '" + sub + "' ] && [ ! -e '" + done + "' ]; then touch '" + done + "'; echo started > '" + ready + "'; cat '" + gate + "' > /dev/null; fi\n" +
		"exec '" + realGit + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	released := false
	release = func() {
		if released {
			return
		}
		released = true
		w, err := os.OpenFile(gate, os.O_WRONLY, 0) // lets git go on
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	started = func() {
		t.Helper()
		r, err := os.Open(ready) // blocks until the held git runs
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if _, err := bufio.NewReader(r).ReadString('\n'); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(release) // a failing test still lets its git end
	}
	return started, release
}

// stateWhileHeld asks the parent's state while git is held, then lets
// git go on; it fails the test when the parent did not answer.
func stateWhileHeld(t *testing.T, f *family, release func()) agentstate.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := f.Runtime.State(ctx, "main")
	release()
	if err != nil {
		t.Fatalf("the parent did not answer while its child's git ran: %v", err)
	}
	return st
}

// TestWorktreeMakingLeavesTheAgentFree: the child's worktree is made off
// the parent's Receive. A git worktree add held until the test lets it go
// shows the parent answering meanwhile, and the child not started yet;
// then the child starts in its worktree as usual.
func TestWorktreeMakingLeavesTheAgentFree(t *testing.T) {
	repo := gitRepo(t)
	started, release := heldGit(t, "worktree")
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("", worktreeSpawn("s1", "Just answer.")),
			testkit.Reply("Delegated."),
			testkit.Reply("Fine."),
		},
		[]testkit.Step{testkit.Reply("Nothing to change.")}, inWorkspace(t, repo))
	f.Prompt("main", "Delegate it.")
	started()
	res := spawned(t, f.Harness, "main", "s1") // journaled before the worktree is made
	if _, err := os.Stat(res.ChildSupervision.Worktree.Path); err == nil {
		t.Fatal("the worktree exists while its git worktree add is held")
	}
	if st := stateWhileHeld(t, f, release); len(st.RunningChildTasks()) != 1 {
		t.Fatalf("the parent's running child tasks = %d while the worktree is made, want 1", len(st.RunningChildTasks()))
	}
	out := endedWorktree(t, f.Harness, "main", res.SupervisionTaskID)
	if out.CleanupStatus != worktree.StatusRemoved {
		t.Fatalf("worktree after the task = %+v, want removed", out)
	}
	if text := admittedText(t, f.Harness, res.ChildAgentID, messages.KindInternalFollowup); text != "Just answer." {
		t.Errorf("the child's first message = %q", text)
	}
}

// TestWorktreeCleanupLeavesTheAgentFree: a finished child's worktree is
// cleaned up off the parent's Receive, and the task's end is journaled
// once it is. A git diff (the cleanup's first look at the worktree) held
// until the test lets it go shows the parent answering meanwhile with the
// task still running.
func TestWorktreeCleanupLeavesTheAgentFree(t *testing.T) {
	repo := gitRepo(t)
	started, release := heldGit(t, "diff")
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("", worktreeSpawn("s1", "Just answer.")),
			testkit.Reply("Delegated."),
			testkit.Reply("Fine."),
		},
		[]testkit.Step{testkit.Reply("Nothing to change.")}, inWorkspace(t, repo))
	f.Prompt("main", "Delegate it.")
	res := spawned(t, f.Harness, "main", "s1")
	started()
	st := stateWhileHeld(t, f, release)
	if r, ok := st.ChildTask(res.ChildAgentID); !ok || r.Terminal() {
		t.Fatalf("the child's task ended before its worktree was cleaned up: %+v", r)
	}
	out := endedWorktree(t, f.Harness, "main", res.SupervisionTaskID)
	if out.CleanupStatus != worktree.StatusRemoved {
		t.Fatalf("worktree after the task = %+v, want removed", out)
	}
}

// TestWorktreeStopAnsweredAfterCleanup: TaskStop of a worktree-mode child
// is answered once the task's end is durable, after the worktree's
// cleanup, which runs off the parent's actor: while the cleanup's git is
// held the parent answers, its TaskStop call is still waiting and the task
// still runs; then the task ends cancelled before TaskStop's result.
func TestWorktreeStopAnsweredAfterCleanup(t *testing.T) {
	repo := gitRepo(t)
	started, release := heldGit(t, "diff")
	gate := make(chan struct{}) // never closed: the child's turn runs until it is stopped
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("", worktreeSpawn("s1", "Work until stopped.")),
			testkit.Reply("Delegated."),
		},
		[]testkit.Step{{Gate: gate, Text: "never"}}, inWorkspace(t, repo))
	f.Prompt("main", "Delegate it.")
	res := spawned(t, f.Harness, "main", "s1")
	<-f.child.Called
	f.parent.Script(
		testkit.Reply("", testkit.Call("stop1", task.StopName, `{"task_id":"`+res.SupervisionTaskID+`"}`)),
		testkit.Reply("Stopped."),
		testkit.Reply("Noted."),
	)
	f.Prompt("main", "Stop it.")
	started()
	st := stateWhileHeld(t, f, release)
	if r, ok := st.ChildTask(res.ChildAgentID); !ok || r.Terminal() {
		t.Fatalf("the child's task ended before its worktree was cleaned up: %+v", r)
	}
	if st.Turn == nil {
		t.Fatal("the parent's turn ended before its TaskStop call was answered")
	}
	ended := taskEnded(t, f.Harness, "main", res.SupervisionTaskID)
	if ended.Status != task.StatusCancelled {
		t.Errorf("task ended %s, want cancelled", ended.Status)
	}
	stop := f.WaitEvent("main", func(ev messages.Event) bool {
		return ev.Type == messages.EventToolExecuted && strings.Contains(string(ev.Payload), `"call_id":"stop1"`)
	})
	end := f.WaitEvent("main", func(ev messages.Event) bool {
		return ev.Type == messages.EventTaskFinished && strings.Contains(string(ev.Payload), res.SupervisionTaskID)
	})
	if end.Seq > stop.Seq {
		t.Errorf("TaskStop's result (seq %d) came before the task's end (seq %d)", stop.Seq, end.Seq)
	}
}
