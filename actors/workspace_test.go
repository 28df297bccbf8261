package actors_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestWorkspaceSwitching: an agent attached to a directory of a
// repository works there (its tools' execution root), reads the
// repository's AGENTS.md from the git root, keeps both across a restart,
// isolates into a managed worktree without switching its guidance root,
// goes back to its home, and detaches only an inactive workspace, with
// nothing on disk removed. A symlink out of the workspace is refused.
func TestWorkspaceSwitching(t *testing.T) {
	repo := gitRepo(t)
	sub := filepath.Join(repo, "svc")
	outside := t.TempDir()
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(repo, "AGENTS.md"), "REPO-RULES\n")
	if err := os.Symlink(outside, filepath.Join(sub, "escape")); err != nil {
		t.Fatal(err)
	}
	h := testkit.NewWith(t, testkit.Options{Steps: []testkit.Step{
		testkit.Reply("hello"),
		testkit.Reply("", testkit.Call("c1", "ExecCommand", `{"cmd":"pwd > where.txt"}`),
			testkit.Call("c2", "ApplyPatch", "--- /dev/null\n+++ b/escape/x.txt\n@@ -0,0 +1 @@\n+out\n")),
		testkit.Reply("worked"),
		testkit.Reply("", testkit.Call("c3", "ExecCommand", `{"cmd":"pwd > again.txt"}`)),
		testkit.Reply("worked again"),
		testkit.Reply("", testkit.Call("c4", "ExecCommand", `{"cmd":"pwd > isolated.txt"}`)),
		testkit.Reply("isolated"),
	}, Deps: withTools(t)})
	ctx := context.Background()
	turns := 0
	turn := func() string {
		t.Helper()
		turns++
		h.Prompt("main", "go")
		h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, turns))
		reqs := h.Provider.Requests()
		return reqs[len(reqs)-1].Frame.SystemBlocks[0].Text
	}
	turn()

	v, err := h.Runtime.UseWorkspace(ctx, "main", actors.WorkspaceRequest{Path: sub})
	realRepo, _ := filepath.EvalSymlinks(repo)
	realSub := filepath.Join(realRepo, "svc")
	if err != nil || v.Active.Anchor != realRepo || v.Active.ExecutionRoot != realSub || len(v.Attached) != 1 {
		t.Fatalf("UseWorkspace(%s) = %+v, %v; want anchor %s, root %s", sub, v, err, realRepo, realSub)
	}
	wsID := v.Active.WorkspaceID
	prompt := turn()
	if !strings.Contains(prompt, "REPO-RULES") || !strings.Contains(prompt, filepath.Join(realRepo, "AGENTS.md")) {
		t.Errorf("the prompt lacks the workspace's AGENTS.md:\n%s", prompt)
	}
	if got := strings.TrimSpace(readFile(t, filepath.Join(sub, "where.txt"))); got != realSub {
		t.Errorf("pwd = %q, want the workspace directory %s", got, realSub)
	}
	if te := toolResult(t, h, "main", "c2"); te.Status == messages.ToolOK {
		t.Errorf("ApplyPatch through a symlink out of the workspace succeeded: %s", te.Envelope)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.txt")); err == nil {
		t.Error("a file was written outside the workspace")
	}

	h.Restart()
	if v, err := h.Runtime.Workspaces(ctx, "main"); err != nil || v.Active.WorkspaceID != wsID || v.Active.ExecutionRoot != realSub {
		t.Fatalf("after a restart: %+v, %v; want %s active at %s", v, err, wsID, realSub)
	}
	turn()
	readFile(t, filepath.Join(sub, "again.txt"))

	v, err = h.Runtime.UseWorkspace(ctx, "main", actors.WorkspaceRequest{WorkspaceID: wsID, Mode: messages.WorkspaceIsolated})
	if err != nil || v.Active.WorktreePath == "" || v.Active.Anchor != realRepo || !strings.HasSuffix(v.Active.ExecutionRoot, "svc") {
		t.Fatalf("isolated use = %+v, %v; want a worktree, anchor %s", v, err, realRepo)
	}
	prompt = turn()
	if !strings.Contains(prompt, filepath.Join(realRepo, "AGENTS.md")) {
		t.Errorf("entering the worktree switched the guidance root:\n%s", prompt)
	}
	readFile(t, filepath.Join(v.Active.ExecutionRoot, "isolated.txt"))
	if _, err := os.Stat(filepath.Join(sub, "isolated.txt")); err == nil {
		t.Error("isolated mode ran in the workspace itself")
	}

	if _, err := h.Runtime.DetachWorkspace(ctx, "main", wsID); !errors.Is(err, agentstate.ErrActiveWorkspace) {
		t.Fatalf("detaching the active workspace = %v, want ErrActiveWorkspace", err)
	}
	if _, err := h.Runtime.UseWorkspace(ctx, "main", actors.WorkspaceRequest{Path: sub, WorkspaceID: wsID}); !errors.Is(err, agentstate.ErrWorkspaceRequest) {
		t.Fatalf("path and workspace_id together = %v, want ErrWorkspaceRequest", err)
	}
	if _, err := h.Runtime.UseWorkspace(ctx, "main", actors.WorkspaceRequest{Path: filepath.Join(repo, "missing")}); !errors.Is(err, actors.ErrWorkspacePath) {
		t.Fatalf("a missing path = %v, want ErrWorkspacePath", err)
	}
	home := filepath.Join(h.Home, "agents", "main")
	if v, err := h.Runtime.UseWorkspace(ctx, "main", actors.WorkspaceRequest{WorkspaceID: messages.AgentHomeWorkspace}); err != nil ||
		v.Active.WorkspaceID != messages.AgentHomeWorkspace || v.Active.ExecutionRoot != home {
		t.Fatalf("back home = %+v, %v; want agent_home at %s", v, err, home)
	}
	worktreeDir := v.Active.WorktreePath
	if v, err := h.Runtime.DetachWorkspace(ctx, "main", wsID); err != nil || len(v.Attached) != 0 {
		t.Fatalf("detach = %+v, %v; want it gone from the attached set", v, err)
	}
	for _, d := range []string{repo, worktreeDir} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("detach removed %s: %v", d, err)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestUseWorkspaceTool: the model switches its own workspace with
// UseWorkspace; its next command runs there and the switch is journaled,
// so it holds after a restart. An unknown workspace id is refused and
// changes nothing.
func TestUseWorkspaceTool(t *testing.T) {
	dir := t.TempDir()
	real, _ := filepath.EvalSymlinks(dir)
	h := testkit.NewWith(t, testkit.Options{Steps: []testkit.Step{
		testkit.Reply("", testkit.Call("u0", "UseWorkspace", `{"workspace_id":"nope"}`)),
		testkit.Reply("", testkit.Call("u1", "UseWorkspace", `{"path":`+quote(dir)+`}`)),
		testkit.Reply("", testkit.Call("c1", "ExecCommand", `{"cmd":"pwd > where.txt"}`)),
		testkit.Reply("moved"),
	}, Deps: withTools(t)})
	h.Prompt("main", "go work in the project")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	if te := toolResult(t, h, "main", "u0"); te.Status == messages.ToolOK || !strings.Contains(string(te.Envelope), "nope") {
		t.Errorf("UseWorkspace(nope) = %s %s, want a refusal naming it", te.Status, te.Envelope)
	}
	if te := toolResult(t, h, "main", "u1"); te.Status != messages.ToolOK {
		t.Fatalf("UseWorkspace(path) = %s %s", te.Status, te.Envelope)
	}
	if got := strings.TrimSpace(readFile(t, filepath.Join(dir, "where.txt"))); got != real {
		t.Errorf("the next command ran in %q, want %s", got, real)
	}
	h.Restart()
	if v, err := h.Runtime.Workspaces(context.Background(), "main"); err != nil || v.Active.ExecutionRoot != real || len(v.Attached) != 1 {
		t.Fatalf("after a restart: %+v, %v; want %s active", v, err, real)
	}
}
