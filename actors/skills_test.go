package actors_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestSkillActivation: the prompt lists the agent's skills from their
// front matter (never a body); reading a skill's SKILL.md and running a
// script of another through ExecCommand journal skill_activated with
// their load reasons (the script named relative to the agent's home); a
// completed turn makes them session-active, and after a crash they are
// active still, labelled restored.
func TestSkillActivation(t *testing.T) {
	home := t.TempDir()
	skills := filepath.Join(home, "agents", "main", "skills")
	deploy, lint := filepath.Join(skills, "deploy"), filepath.Join(skills, "lint")
	writeFile(t, filepath.Join(deploy, "SKILL.md"), "---\nname: deploy\ndescription: Ship a release\n---\nBODY-NEVER-IN-PROMPT\n")
	writeFile(t, filepath.Join(lint, "SKILL.md"), "---\nname: lint\ndescription: Lint the code\n---\n")
	writeFile(t, filepath.Join(lint, "scripts", "run.sh"), "echo linted\n")
	h := testkit.NewWith(t, testkit.Options{Steps: []testkit.Step{
		testkit.Reply("", testkit.Call("c1", "ExecCommand", `{"cmd":"cat `+filepath.Join(deploy, "SKILL.md")+`"}`)),
		testkit.Reply("read it"),
		testkit.Reply("", testkit.Call("c2", "ExecCommand", `{"cmd":"sh skills/lint/scripts/run.sh"}`)), // relative to its home
		testkit.Reply("ran it"),
	}, Deps: func(_ string, d *actors.AgentDeps) { withTools(t)(home, d) }})

	h.Prompt("main", "deploy")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	prompt := h.Provider.Requests()[0].Frame.SystemBlocks[0].Text
	if !strings.Contains(prompt, "- deploy (agent): Ship a release") || strings.Contains(prompt, "BODY-NEVER-IN-PROMPT") {
		t.Errorf("the prompt's skills catalog is wrong:\n%s", prompt)
	}
	read := decode[messages.SkillActivated](t, h.WaitEvent("main", testkit.OfType(messages.EventSkillActivated)))
	if read.Skill != "deploy" || read.LoadReason != messages.SkillReadSkillMD || read.Path != filepath.Join(deploy, "SKILL.md") ||
		read.EntrypointPath != read.Path {
		t.Errorf("skill_activated = %+v, want deploy read_skill_md", read)
	}

	h.Restart() // a crash: the journal is all there is
	st, err := h.Runtime.State(context.Background(), "main")
	if err != nil || st.Skills[filepath.Join(deploy, "SKILL.md")] == nil || st.Skills[filepath.Join(deploy, "SKILL.md")].State != agentstate.SkillRestored {
		t.Fatalf("after a restart: %+v, %v; want deploy restored", st.Skills, err)
	}
	h.Prompt("main", "lint")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	ran := decode[messages.SkillActivated](t, h.WaitEvent("main", testkit.NthOfType(messages.EventSkillActivated, 2)))
	if ran.Skill != "lint" || ran.LoadReason != messages.SkillRunScript || ran.Path != filepath.Join(lint, "scripts", "run.sh") ||
		ran.EntrypointPath != filepath.Join(lint, "SKILL.md") {
		t.Errorf("skill_activated = %+v, want lint run_skill_script", ran)
	}
	reqs := h.Provider.Requests()
	if last := reqs[len(reqs)-1].Frame.SystemBlocks[0].Text; !strings.Contains(last, "Active: deploy (restored") {
		t.Errorf("the prompt does not show the active skill:\n%s", last)
	}
}
