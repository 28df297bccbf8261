package actors_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools/task"
	"github.com/holon-actors/holon-actors/tools/worktree"
)

// gitRepo makes a repository with one committed file, README.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// inWorkspace runs the family's tools in workspace.
func inWorkspace(t *testing.T, workspace string) func(home string, d *actors.AgentDeps) {
	return func(home string, d *actors.AgentDeps) {
		withTools(t)(home, d)
		d.ToolEnv.Workspace = workspace
	}
}

func worktreeSpawn(id, msg string) messages.ToolCall {
	return testkit.Call(id, actors.SpawnAgentToolName, `{"initial_message":`+quote(msg)+`,"workspace_mode":"worktree"}`)
}

// endedWorktree waits for task id's end and returns its worktree outcome.
func endedWorktree(t *testing.T, h *testkit.Harness, agent, id string) worktree.Info {
	t.Helper()
	var out task.OutputTask
	if err := json.Unmarshal(taskEnded(t, h, agent, id).Result, &out); err != nil {
		t.Fatal(err)
	}
	if out.ChildSupervision == nil || out.ChildSupervision.Worktree == nil || out.ChildSupervision.WorkspaceMode != "worktree" {
		t.Fatalf("task result has no worktree: %+v", out.ChildSupervision)
	}
	return *out.ChildSupervision.Worktree
}

// admittedText waits for agent's message of kind and returns its text.
func admittedText(t *testing.T, h *testkit.Harness, agent string, kind messages.MessageKind) string {
	t.Helper()
	ev := h.WaitEvent(agent, func(ev messages.Event) bool {
		return ev.Type == messages.EventMessageAdmitted && decode[messages.MessageAdmitted](t, ev).Envelope.Kind == kind
	})
	return decode[messages.MessageAdmitted](t, ev).Envelope.Body.Text
}

// TestWorktreeChildKeepsItsWork: a worktree-mode child works in its own
// worktree on its own branch, not in its parent's repository; its changes
// keep the worktree when the task ends, and the parent is told where.
func TestWorktreeChildKeepsItsWork(t *testing.T) {
	repo := gitRepo(t)
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("", worktreeSpawn("s1", "Write result.txt.")),
			testkit.Reply("Delegated."),
			testkit.Reply("Reviewed."),
		},
		[]testkit.Step{
			testkit.Reply("", testkit.Call("c1", "ExecCommand", `{"cmd":"pwd && echo done > result.txt"}`)),
			testkit.Reply("Wrote result.txt."),
		}, inWorkspace(t, repo))
	f.Prompt("main", "Delegate it.")
	res := spawned(t, f.Harness, "main", "s1")
	wt := res.ChildSupervision.Worktree
	if wt == nil || wt.CleanupStatus != worktree.StatusActive || wt.Branch != "holon/"+res.SupervisionTaskID ||
		wt.BaseCommit != git(t, repo, "rev-parse", "HEAD") {
		t.Fatalf("SpawnAgent worktree = %+v", wt)
	}
	pwd := toolResult(t, f.Harness, res.ChildAgentID, "c1")
	if pwd.Status != messages.ToolOK || !strings.Contains(pwd.Receipt, wt.Path) {
		t.Fatalf("the child's command ran elsewhere: %s", pwd.Receipt)
	}

	out := endedWorktree(t, f.Harness, "main", res.SupervisionTaskID)
	if out.CleanupStatus != worktree.StatusRetained || !slices.Equal(out.ChangedFiles, []string{"result.txt"}) {
		t.Fatalf("worktree after the task = %+v, want retained with result.txt", out)
	}
	if _, err := os.Stat(filepath.Join(wt.Path, "result.txt")); err != nil {
		t.Errorf("the child's file is not in its worktree: %v", err)
	}
	if _, err := os.Stat(filepath.Join(repo, "result.txt")); err == nil {
		t.Error("the child wrote into its parent's repository")
	}
	if !strings.Contains(git(t, repo, "branch"), wt.Branch) {
		t.Error("the retained worktree's branch is gone")
	}
	text := admittedText(t, f.Harness, "main", messages.KindTaskResult)
	if !strings.Contains(text, "kept at "+wt.Path) || !strings.Contains(text, "result.txt") {
		t.Errorf("task_result = %q, want the kept worktree and its changes", text)
	}
	// The supervision handle keeps the outcome.
	views, err := f.Runtime.Children(context.Background(), "main", true)
	if err != nil || len(views) != 1 || views[0].Supervision.Worktree == nil || views[0].Supervision.Worktree.CleanupStatus != worktree.StatusRetained {
		t.Fatalf("Children = %+v, %v", views, err)
	}
}

// TestWorktreeChildCleanRemoved: a child that changed nothing leaves no
// worktree and no branch behind.
func TestWorktreeChildCleanRemoved(t *testing.T) {
	repo := gitRepo(t)
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("", worktreeSpawn("s1", "Just answer.")),
			testkit.Reply("Delegated."),
			testkit.Reply("Fine."),
		},
		[]testkit.Step{testkit.Reply("Nothing to change.")}, inWorkspace(t, repo))
	f.Prompt("main", "Delegate it.")
	res := spawned(t, f.Harness, "main", "s1")
	out := endedWorktree(t, f.Harness, "main", res.SupervisionTaskID)
	if out.CleanupStatus != worktree.StatusRemoved {
		t.Fatalf("worktree after the task = %+v, want removed", out)
	}
	if _, err := os.Stat(out.Path); err == nil {
		t.Error("the clean worktree is still there")
	}
	if strings.Contains(git(t, repo, "branch"), out.Branch) {
		t.Error("the clean worktree's branch is still there")
	}
	if text := admittedText(t, f.Harness, "main", messages.KindTaskResult); !strings.Contains(text, "was removed") {
		t.Errorf("task_result = %q, want the removal", text)
	}
}

// TestWorktreeChildSurvivesCrash: the child's execution root is in its
// journal, so after a crash it still works in its worktree; TaskStop then
// ends the task and keeps the worktree it changed.
func TestWorktreeChildSurvivesCrash(t *testing.T) {
	repo := gitRepo(t)
	gate := make(chan struct{})
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("", worktreeSpawn("s1", "Write where.txt, then wait.")),
			testkit.Reply("Delegated."),
		},
		[]testkit.Step{
			{Gate: gate, Calls: []messages.ToolCall{testkit.Call("c1", "ExecCommand", `{"cmd":"pwd > where.txt"}`)}},
			testkit.Reply("", testkit.Call("c2", "ExecCommand", `{"cmd":"pwd > where.txt"}`)),
			testkit.Reply("", testkit.Call("c3", "ExecCommand", `{"cmd":"sleep 300","yield_time_ms":50}`)),
			testkit.Reply("Waiting."),
		}, inWorkspace(t, repo))
	f.Prompt("main", "Delegate it.")
	res := spawned(t, f.Harness, "main", "s1")
	<-f.child.Called
	f.Restart()
	close(gate)
	info, err := f.Runtime.Info(context.Background(), res.ChildAgentID)
	if err != nil || info.ExecutionRoot != res.ChildSupervision.Worktree.Path {
		t.Fatalf("child after the crash: execution root %q (%v), want %s", info.ExecutionRoot, err, res.ChildSupervision.Worktree.Path)
	}
	f.WaitEvent(res.ChildAgentID, func(ev messages.Event) bool {
		return ev.Type == messages.EventToolExecuted && strings.Contains(string(ev.Payload), `"call_id":"c3"`)
	})
	where, err := os.ReadFile(filepath.Join(res.ChildSupervision.Worktree.Path, "where.txt"))
	if err != nil || strings.TrimSpace(string(where)) != res.ChildSupervision.Worktree.Path {
		t.Fatalf("where.txt = %q (%v), want the worktree", where, err)
	}
	f.parent.Script(
		testkit.Reply("", testkit.Call("stop1", task.StopName, `{"task_id":"`+res.SupervisionTaskID+`"}`)),
		testkit.Reply("Stopped."),
		testkit.Reply("Noted."),
	)
	f.Prompt("main", "Stop it.")
	if stop := toolResult(t, f.Harness, "main", "stop1"); stop.Status != messages.ToolOK {
		t.Fatalf("TaskStop = %s", stop.Receipt)
	}
	out := endedWorktree(t, f.Harness, "main", res.SupervisionTaskID)
	if out.CleanupStatus != worktree.StatusRetained || !slices.Contains(out.ChangedFiles, "where.txt") {
		t.Fatalf("worktree after TaskStop = %+v, want retained with where.txt", out)
	}
}

// TestWorktreeInheritedByGrandchild: a worktree-mode child's own inherit
// child works in the same worktree, its parent's workspace.
func TestWorktreeInheritedByGrandchild(t *testing.T) {
	repo := gitRepo(t)
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("", worktreeSpawn("s1", "mid: delegate the check")),
			testkit.Reply("Delegated."),
		}, nil, inWorkspace(t, repo))
	f.roles["mid"] = testkit.NewProvider(
		testkit.Reply("", spawnCall("m1", "leaf: say where you are")),
		testkit.Reply("Asked."),
	)
	f.roles["leaf"] = testkit.NewProvider(
		testkit.Reply("", testkit.Call("l1", "ExecCommand", `{"cmd":"pwd"}`)),
		testkit.Reply("Here."),
	)
	f.Prompt("main", "Delegate it.")
	mid := spawned(t, f.Harness, "main", "s1")
	leaf := spawned(t, f.Harness, mid.ChildAgentID, "m1")
	if leaf.ChildSupervision.Worktree != nil {
		t.Fatalf("the inherit grandchild got a worktree of its own: %+v", leaf.ChildSupervision.Worktree)
	}
	pwd := toolResult(t, f.Harness, leaf.ChildAgentID, "l1")
	if !strings.Contains(pwd.Receipt, mid.ChildSupervision.Worktree.Path) {
		t.Fatalf("the grandchild ran in %s, want its parent's worktree %s", pwd.Receipt, mid.ChildSupervision.Worktree.Path)
	}
}
