package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// TestWorkspaceUseAdoptsWorktree: `agents workspace use` on an existing
// git worktree of the agent's attached repository keeps the repository's
// workspace and prints how to get a runtime-managed worktree instead.
func TestWorkspaceUseAdoptsWorktree(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	shop := t.TempDir()
	fix := filepath.Join(t.TempDir(), "fix")
	for _, c := range [][]string{
		{"init", "-q", "-b", "main", shop},
		{"-C", shop, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "first"},
		{"-C", shop, "worktree", "add", "-q", "-b", "fix", fix},
	} {
		if out, err := exec.Command("git", c...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", c, err, out)
		}
	}
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	startRun(t, home, "--model", "scripted", "--script", script)
	if code, out, errOut := client(t, home, "agents", "create", "shopkeeper"); code != 0 {
		t.Fatalf("agents create = %d %q %q", code, out, errOut)
	}
	code, out, errOut := client(t, home, "--json", "--agent", "shopkeeper", "agents", "workspace", "use", shop)
	var v agentstate.WorkspaceView
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Guidance != "" {
		t.Fatalf("workspace use %s = %d %q %q", shop, code, out, errOut)
	}
	code, out, errOut = client(t, home, "--agent", "shopkeeper", "agents", "workspace", "use", fix)
	realFix, _ := filepath.EvalSymlinks(fix)
	for _, want := range []string{"works in " + v.Active.WorkspaceID, "execution root: " + realFix,
		"existing git worktree", `use workspace_id "` + v.Active.WorkspaceID + `" with mode "isolated"`} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("workspace use %s = %d, lacks %q:\n%s%s", fix, code, want, out, errOut)
		}
	}
}
