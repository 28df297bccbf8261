package agentstate

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

var updateFrames = flag.Bool("update", false, "rewrite testdata/prompt_frames")

// The prompt frame for each case of instruction sources is pinned as a
// golden file (go test ./actors/agentstate -update rewrites them), so a
// change of the layers' order or text shows in review.
func TestPromptFrameGoldens(t *testing.T) {
	agentMD := &InstructionSource{Scope: ScopeAgent, Path: "/h/agents/a1/AGENTS.md", Kind: "AGENTS.md", Bytes: 21, Text: "Answer in French.\n"}
	wsMD := &InstructionSource{Scope: ScopeWorkspace, Path: "/src/proj/AGENTS.md", Kind: "AGENTS.md", Bytes: 16, Text: "Use tabs, not spaces."}
	claudeMD := &InstructionSource{Scope: ScopeWorkspace, Path: "/src/proj/CLAUDE.md", Kind: "CLAUDE.md", Bytes: 9, Text: "Be terse."}
	cut := &InstructionSource{Scope: ScopeAgent, Path: "/h/agents/a1/AGENTS.md", Kind: "AGENTS.md", Bytes: 90000, Truncated: true,
		Text: "Long rules…\n[AGENTS.md truncated: the first 14 of 90000 bytes are shown]"}
	cases := []struct {
		name  string
		g     Guidance
		tools []llm.ToolSpec
	}{
		{"none", Guidance{}, nil},
		{"agent-only", Guidance{AgentHome: "/h/agents/a1", Agent: agentMD}, nil},
		{"workspace-only", Guidance{AgentHome: "/h/agents/a1", WorkspaceAnchor: "/src/proj", Workspace: wsMD}, nil},
		{"agent-and-workspace", Guidance{AgentHome: "/h/agents/a1", WorkspaceAnchor: "/src/proj", Agent: agentMD, Workspace: wsMD},
			[]llm.ToolSpec{{Name: "ExecCommand"}, {Name: "ApplyPatch"}}},
		{"claude-fallback", Guidance{AgentHome: "/h/agents/a1", WorkspaceAnchor: "/src/proj", Agent: agentMD, Workspace: claudeMD}, nil},
		{"truncated", Guidance{AgentHome: "/h/agents/a1", Agent: cut}, nil},
		{"skills", Guidance{AgentHome: "/h/agents/a1", Agent: agentMD, Skills: []SkillEntry{
			{Name: "deploy", Description: "Ship a release", Scope: "agent", Dir: "/h/agents/a1/skills/deploy", Path: "/h/agents/a1/skills/deploy/SKILL.md"},
			{Name: "lint", Scope: "workspace", Dir: "/src/proj/.agents/skills/lint", Path: "/src/proj/.agents/skills/lint/SKILL.md"}}},
			[]llm.ToolSpec{{Name: "ExecCommand"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &State{ID: "a1", Kind: messages.AgentNamed, Model: "m1", Turn: &TurnState{ID: "t1", MessageID: "m9", Index: 1}}
			env := testEnv()
			env.AgentID, env.Cfg.SystemPrompt, env.Guidance = "a1", "You are a long-lived agent.", c.g
			req, _ := Request(st, env, c.tools)
			got := "system_prompt:\n" + req.Frame.SystemPrompt + "\n\nsystem_block:\n" + req.Frame.SystemBlocks[0].Text + "\n"
			path := filepath.Join("testdata", "prompt_frames", c.name+".golden")
			if *updateFrames {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./actors/agentstate -run PromptFrameGoldens -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("frame differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
			}
		})
	}
}

// The layers come in the contract's order, and an instruction change
// changes the prompt cache key (the next turn's prompt carries it).
func TestPromptLayerOrderAndCacheKey(t *testing.T) {
	st := &State{ID: "a1", Kind: messages.AgentNamed, Turn: &TurnState{ID: "t1"}}
	env := testEnv()
	env.Guidance = Guidance{AgentHome: "/h", WorkspaceAnchor: "/w",
		Agent:     &InstructionSource{Scope: ScopeAgent, Path: "/h/AGENTS.md", Kind: "AGENTS.md", Text: "AGENT-RULES"},
		Workspace: &InstructionSource{Scope: ScopeWorkspace, Path: "/w/AGENTS.md", Kind: "AGENTS.md", Text: "WS-RULES"}}
	tools := []llm.ToolSpec{{Name: "ExecCommand"}}
	req, _ := Request(st, env, tools)
	text := req.Frame.SystemBlocks[0].Text
	order := []string{"## Runtime policy", "Instruction precedence:", "Engineering guardrails:", "## Mode", "## Agent instructions", "AGENT-RULES",
		"## Workspace instructions", "WS-RULES", "## Tools"}
	last := -1
	for _, s := range order {
		i := strings.Index(text, s)
		if i <= last {
			t.Fatalf("%q at %d, not after the layer before it (%d):\n%s", s, i, last, text)
		}
		last = i
	}
	env.Guidance.Agent = &InstructionSource{Scope: ScopeAgent, Path: "/h/AGENTS.md", Kind: "AGENTS.md", Text: "NEW-RULES"}
	req2, _ := Request(st, env, tools)
	if req.Frame.Cache.PromptCacheKey == req2.Frame.Cache.PromptCacheKey {
		t.Error("the prompt cache key did not change with the agent's instructions")
	}
	if len(env.Guidance.Sources()) != 2 || env.Guidance.Sources()[0].Scope != ScopeAgent {
		t.Errorf("Sources = %+v, want agent then workspace", env.Guidance.Sources())
	}
}
