package actors_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestWorkspaceAdoptsExistingWorktree: a path inside an existing git
// worktree of an attached repository keeps the repository's workspace id
// and anchor, runs the agent's tools in the worktree (an external
// execution root, kept across a restart), and the answer tells how to get
// a runtime-managed worktree instead; a worktree of a repository not
// attached is a workspace of its own, with no such guidance. Nothing is
// attached twice.
func TestWorkspaceAdoptsExistingWorktree(t *testing.T) {
	repo, other := gitRepo(t), gitRepo(t)
	realRepo, _ := filepath.EvalSymlinks(repo)
	fix := filepath.Join(t.TempDir(), "fix")
	git(t, repo, "worktree", "add", "-q", "-b", "fix", fix)
	realFix, _ := filepath.EvalSymlinks(fix)
	otherWT := filepath.Join(t.TempDir(), "spike")
	git(t, other, "worktree", "add", "-q", "-b", "spike", otherWT)
	realOtherWT, _ := filepath.EvalSymlinks(otherWT)
	for _, d := range []string{filepath.Join(fix, "svc"), filepath.Join(otherWT, "svc")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h := testkit.NewWith(t, testkit.Options{Steps: []testkit.Step{
		testkit.Reply("hello"),
		testkit.Reply("", testkit.Call("u1", "UseWorkspace", `{"path":`+quote(filepath.Join(fix, "svc"))+`}`)),
		testkit.Reply("", testkit.Call("c1", "ExecCommand", `{"cmd":"pwd > where.txt"}`)),
		testkit.Reply("in the worktree"),
	}, Deps: withTools(t)})
	ctx := context.Background()
	h.Prompt("main", "hello")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))

	v, err := h.Runtime.UseWorkspace(ctx, "main", actors.WorkspaceRequest{Path: repo})
	if err != nil || v.Active.Anchor != realRepo || v.Guidance != "" {
		t.Fatalf("UseWorkspace(repo) = %+v, %v; want anchor %s and no guidance", v, err, realRepo)
	}
	repoID := v.Active.WorkspaceID

	for _, tc := range []struct {
		name, path, wantAnchor, wantRoot string
		adopted                          bool
	}{
		{"a worktree of the attached repository", filepath.Join(fix, "svc"), realRepo, filepath.Join(realFix, "svc"), true},
		{"its root", fix, realRepo, realFix, true},
		{"a worktree of a repository not attached", otherWT, realOtherWT, realOtherWT, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := h.Runtime.UseWorkspace(ctx, "main", actors.WorkspaceRequest{Path: tc.path})
			if err != nil || v.Active.Anchor != tc.wantAnchor || v.Active.ExecutionRoot != tc.wantRoot || v.Active.WorktreePath != "" {
				t.Fatalf("UseWorkspace(%s) = %+v, %v; want anchor %s, root %s", tc.path, v.Active, err, tc.wantAnchor, tc.wantRoot)
			}
			if got := v.Active.WorkspaceID == repoID; got != tc.adopted {
				t.Errorf("workspace id %s (the repository's %s): adopted %v, want %v", v.Active.WorkspaceID, repoID, got, tc.adopted)
			}
			if tc.adopted != (strings.Contains(v.Guidance, `mode "isolated"`) && strings.Contains(v.Guidance, repoID)) {
				t.Errorf("guidance %q; want the isolated-mode hint for %s: %v", v.Guidance, repoID, tc.adopted)
			}
		})
	}
	v, err = h.Runtime.Workspaces(ctx, "main")
	if err != nil || len(v.Attached) != 2 {
		t.Fatalf("attached = %+v, %v; want the repository and the other worktree, each once", v.Attached, err)
	}

	// The model's own UseWorkspace adopts the same way and says so.
	h.Prompt("main", "work on the fix")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	te := toolResult(t, h, "main", "u1")
	if te.Status != messages.ToolOK || !strings.Contains(string(te.Envelope), repoID) || !strings.Contains(string(te.Envelope), `mode \"isolated\"`) {
		t.Errorf("UseWorkspace(worktree) = %s %s; want %s kept and the isolated-mode hint", te.Status, te.Envelope, repoID)
	}
	if got := strings.TrimSpace(readFile(t, filepath.Join(fix, "svc", "where.txt"))); got != filepath.Join(realFix, "svc") {
		t.Errorf("the next command ran in %q, want the worktree's svc", got)
	}
	h.Restart()
	if v, err := h.Runtime.Workspaces(ctx, "main"); err != nil || v.Active.WorkspaceID != repoID ||
		v.Active.Anchor != realRepo || v.Active.ExecutionRoot != filepath.Join(realFix, "svc") {
		t.Fatalf("after a restart: %+v, %v; want %s at the worktree", v.Active, err, repoID)
	}
}
