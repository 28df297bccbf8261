package actors_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestInstructionsReachThePrompt: the agent's AGENTS.md (from its home)
// and the workspace's (from the workspace's git root, not the directory
// the tools run in) reach the prompt; an edit shows at the next turn, with
// no restart; CLAUDE.md stands in only while the workspace has no
// AGENTS.md.
func TestInstructionsReachThePrompt(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "repo")
	sub := filepath.Join(repo, "svc")
	for _, d := range []string{filepath.Join(repo, ".git"), sub} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(sub, "AGENTS.md"), "SUBDIR-RULES: never loaded, not an anchor\n")
	writeFile(t, filepath.Join(repo, "CLAUDE.md"), "CLAUDE-RULES\n")
	h := testkit.NewWith(t, testkit.Options{Steps: []testkit.Step{testkit.Reply("one"), testkit.Reply("two"), testkit.Reply("three")},
		Deps: func(home string, d *actors.AgentDeps) {
			d.ToolEnv.Home = home
			d.ToolEnv.Workspace = sub
		}})
	agentMD := filepath.Join(h.Home, "agents", "main", "AGENTS.md")
	writeFile(t, agentMD, "AGENT-RULES-V1\n")

	turn := func(n int, text string) string {
		t.Helper()
		h.Prompt("main", text)
		h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, n))
		reqs := h.Provider.Requests()
		return reqs[len(reqs)-1].Frame.SystemBlocks[0].Text
	}
	first := turn(1, "first")
	for _, want := range []string{"AGENT-RULES-V1", agentMD, "CLAUDE-RULES", "workspace-scoped CLAUDE.md, " + filepath.Join(repo, "CLAUDE.md")} {
		if !strings.Contains(first, want) {
			t.Errorf("first turn's prompt lacks %q:\n%s", want, first)
		}
	}
	if strings.Contains(first, "SUBDIR-RULES") {
		t.Errorf("the prompt carries the execution directory's AGENTS.md:\n%s", first)
	}
	writeFile(t, agentMD, "AGENT-RULES-V2\n")
	writeFile(t, filepath.Join(repo, "AGENTS.md"), "WORKSPACE-RULES\n")
	second := turn(2, "second")
	if !strings.Contains(second, "AGENT-RULES-V2") || strings.Contains(second, "AGENT-RULES-V1") {
		t.Errorf("second turn's prompt does not carry the edited AGENTS.md:\n%s", second)
	}
	if !strings.Contains(second, "WORKSPACE-RULES") || strings.Contains(second, "CLAUDE-RULES") {
		t.Errorf("second turn's prompt: want the workspace's AGENTS.md over its CLAUDE.md:\n%s", second)
	}
	if err := os.Remove(agentMD); err != nil {
		t.Fatal(err)
	}
	if third := turn(3, "third"); strings.Contains(third, "## Agent instructions") {
		t.Errorf("third turn's prompt still has agent instructions after AGENTS.md was removed:\n%s", third)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
