package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// TestNewUserWorkspaceFlow is a new user's first session with two
// projects: two agents with their own instructions, each attached to its
// own project, one command run there, all of it still so after a restart;
// then detaching, which refuses the active workspace with a hint.
func TestNewUserWorkspaceFlow(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	shop, blog := t.TempDir(), t.TempDir()
	if out, err := exec.Command("git", "init", "-q", shop).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	api := filepath.Join(shop, "api")
	if err := os.MkdirAll(api, 0o755); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"steps": [{"tool_calls": [{"id": "c1", "name": "ExecCommand", "arguments": {"cmd": "pwd > where.txt"}}]},
		{"text": "Noted where I am."}], "then": "echo"}`)
	args := []string{"--model", "scripted", "--script", script}
	d := startRun(t, home, args...)

	for _, c := range [][]string{
		{"agents", "create", "shopkeeper", "--instructions", "Mind the shop."},
		{"agents", "create", "writer", "--template", "holon-developer"},
		{"--agent", "shopkeeper", "agents", "workspace", "use", api},
		{"--agent", "writer", "agents", "workspace", "use", blog},
	} {
		if code, out, errOut := client(t, home, c...); code != 0 {
			t.Fatalf("%v = %d %q %q", c, code, out, errOut)
		}
	}
	if code, out, errOut := client(t, home, "--agent", "shopkeeper", "prompt", "--wait", "where are you?"); code != 0 || !strings.Contains(out, "Noted") {
		t.Fatalf("prompt = %d %q %q", code, out, errOut)
	}
	realAPI, _ := filepath.EvalSymlinks(api)
	if got, err := os.ReadFile(filepath.Join(api, "where.txt")); err != nil || strings.TrimSpace(string(got)) != realAPI {
		t.Fatalf("the command ran in %q (%v), want the workspace %s", got, err, realAPI)
	}
	if got := readText(t, filepath.Join(home, "agents", "shopkeeper", "AGENTS.md")); got != "Mind the shop." {
		t.Errorf("shopkeeper's AGENTS.md = %q", got)
	}
	realShopDir, _ := filepath.EvalSymlinks(shop)
	code, out, errOut := client(t, home, "debug", "prompt", "--agent", "shopkeeper")
	for _, want := range []string{"workspace_anchor: " + realShopDir, "execution_root:   " + realAPI,
		"agent     AGENTS.md " + filepath.Join(home, "agents", "shopkeeper", "AGENTS.md"), "Mind the shop.", "## Runtime policy"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("debug prompt = %d, lacks %q:\n%s%s", code, want, out, errOut)
		}
	}
	skill := filepath.Join(t.TempDir(), "stocktake")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: stocktake\ndescription: Count the stock\n---\nbody\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := client(t, home, "--agent", "shopkeeper", "skills", "install", skill); code != 0 || !strings.Contains(out, "installed skill stocktake") {
		t.Fatalf("skills install = %d %q %q", code, out, errOut)
	}
	if code, out, errOut := client(t, home, "skills", "list", "shopkeeper"); code != 0 || !strings.Contains(out, "stocktake") || !strings.Contains(out, "Count the stock") {
		t.Errorf("skills list = %d %q %q, want the installed skill", code, out, errOut)
	}
	if code, _, errOut := client(t, home, "skills", "install", skill); code != exitUsage || !strings.Contains(errOut, "--agent") {
		t.Errorf("skills install without --agent = %d %q, want a usage error", code, errOut)
	}
	code, out, errOut = client(t, home, "--json", "status", "shopkeeper")
	var st struct {
		Loaded []struct {
			Scope, Path, Kind string
		} `json:"loaded_agents_md"`
		Workspace struct {
			WorkspaceID string `json:"workspace_id"`
			Anchor      string `json:"anchor"`
		} `json:"workspace"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || len(st.Loaded) != 1 || st.Loaded[0].Kind != "AGENTS.md" ||
		st.Workspace.Anchor != realShopDir || strings.Contains(out, "Mind the shop.") {
		t.Errorf("status = %d %q %q: want loaded_agents_md metadata (no content) and the active workspace", code, out, errOut)
	}

	d.stop()
	startRun(t, home, args...)
	view := func(agent string) agentstate.WorkspaceView {
		t.Helper()
		code, out, errOut := client(t, home, "--json", "--agent", agent, "agents", "workspace", "list")
		var v agentstate.WorkspaceView
		if code != 0 || json.Unmarshal([]byte(out), &v) != nil {
			t.Fatalf("workspace list %s = %d %q %q", agent, code, out, errOut)
		}
		return v
	}
	realShop, _ := filepath.EvalSymlinks(shop)
	realBlog, _ := filepath.EvalSymlinks(blog)
	sv, wv := view("shopkeeper"), view("writer")
	if sv.Active.Anchor != realShop || sv.Active.ExecutionRoot != realAPI || wv.Active.Anchor != realBlog {
		t.Fatalf("after a restart: shopkeeper %+v, writer %+v; want them in their own projects", sv.Active, wv.Active)
	}
	code, _, errOut = client(t, home, "--agent", "shopkeeper", "agents", "workspace", "detach", sv.Active.WorkspaceID)
	if code != exitFailure || !strings.Contains(errOut, "agents workspace use --id agent_home") {
		t.Fatalf("detaching the active workspace = %d %q, want a refusal with the way out", code, errOut)
	}
	for _, c := range [][]string{
		{"--agent", "shopkeeper", "agents", "workspace", "use", "--id", "agent_home"},
		{"--agent", "shopkeeper", "agents", "workspace", "detach", sv.Active.WorkspaceID},
	} {
		if code, out, errOut := client(t, home, c...); code != 0 {
			t.Fatalf("%v = %d %q %q", c, code, out, errOut)
		}
	}
	if v := view("shopkeeper"); len(v.Attached) != 0 || v.Active.WorkspaceID != "agent_home" {
		t.Errorf("after detach: %+v", v)
	}
	if _, err := os.Stat(filepath.Join(api, "where.txt")); err != nil {
		t.Errorf("detach touched the project: %v", err)
	}
}
