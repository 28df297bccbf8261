package agentstate

import (
	"encoding/json"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestSkillActivation(t *testing.T) {
	catalog := []SkillEntry{
		{Name: "deploy", Scope: "agent", Dir: "/h/skills/deploy", Path: "/h/skills/deploy/SKILL.md"},
		{Name: "lint", Scope: "workspace", Dir: "/w/.agents/skills/lint", Path: "/w/.agents/skills/lint/SKILL.md"},
	}
	call := func(name, args string) messages.ToolCall {
		return messages.ToolCall{ID: "c1", Name: name, Arguments: json.RawMessage(args)}
	}
	cases := []struct {
		name       string
		call       messages.ToolCall
		want       []string // skill/reason/path
		sessionHas string
		cwd        string
	}{
		{"reading SKILL.md", call("ExecCommand", `{"cmd":"sed -n 1,80p /h/skills/deploy/SKILL.md"}`),
			[]string{"deploy/read_skill_md//h/skills/deploy/SKILL.md"}, "", ""},
		{"running a script", call("ExecCommand", `{"cmd":"bash /w/.agents/skills/lint/scripts/run.sh ./..."}`),
			[]string{"lint/run_skill_script//w/.agents/skills/lint/scripts/run.sh"}, "", ""},
		{"a batch names both", call("ExecCommandBatch", `{"commands":[{"cmd":"cat /h/skills/deploy/SKILL.md"},{"cmd":"/w/.agents/skills/lint/scripts/x"}]}`),
			[]string{"deploy/read_skill_md//h/skills/deploy/SKILL.md", "lint/run_skill_script//w/.agents/skills/lint/scripts/x"}, "", ""},
		{"another tool", call("ApplyPatch", `{"patch":"/h/skills/deploy/SKILL.md"}`), nil, "", ""},
		{"already session-active", call("ExecCommand", `{"cmd":"cat /h/skills/deploy/SKILL.md"}`), nil, "/h/skills/deploy/SKILL.md", ""},
		{"discovery alone", call("ExecCommand", `{"cmd":"ls /h/skills"}`), nil, "", ""},
		{"SKILL.md relative to the home", call("ExecCommand", `{"cmd":"cat skills/deploy/SKILL.md"}`),
			[]string{"deploy/read_skill_md//h/skills/deploy/SKILL.md"}, "", "/h"},
		{"a ./ script relative to the workspace", call("ExecCommand", `{"cmd":"bash ./.agents/skills/lint/scripts/run.sh"}`),
			[]string{"lint/run_skill_script//w/.agents/skills/lint/scripts/run.sh"}, "", "/w"},
		{"relative to the call's workdir", call("ExecCommand", `{"cmd":"cat deploy/SKILL.md","workdir":"skills"}`),
			[]string{"deploy/read_skill_md//h/skills/deploy/SKILL.md"}, "", "/h"},
		{"the tail of another path", call("ExecCommand", `{"cmd":"cat /x/skills/deploy/SKILL.md"}`), nil, "", "/h"},
		{"relative outside the cwd", call("ExecCommand", `{"cmd":"cat skills/deploy/SKILL.md"}`), nil, "", "/w"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := &State{Turn: &TurnState{ID: "t1"}}
			if tc.sessionHas != "" {
				st.Skills = map[string]*ActiveSkill{tc.sessionHas: {Name: "deploy", EntrypointPath: tc.sessionHas, State: SkillSessionActive}}
			}
			b := SkillActivations(st, catalog, tc.call, tc.cwd)
			var got []string
			for _, p := range b {
				a := p.(messages.SkillActivated)
				got = append(got, a.Skill+"/"+a.LoadReason+"/"+a.Path)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("activations = %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("activations = %v, want %v", got, tc.want)
				}
			}
		})
	}
}

// A completed turn promotes its skills to session-active; a failed one
// drops them.
func TestSkillPromotion(t *testing.T) {
	for _, tc := range []struct {
		kind messages.TurnTerminalKind
		want string
	}{{messages.TerminalCompleted, SkillSessionActive}, {messages.TerminalAborted, ""}} {
		st := &State{Turn: &TurnState{ID: "t1"}}
		st.applySkillActivated(messages.SkillActivated{TurnID: "t1", Skill: "deploy", EntrypointPath: "/s/SKILL.md"})
		if st.Skills["/s/SKILL.md"].State != SkillTurnActive {
			t.Fatalf("after activation: %+v, want turn_active", st.Skills)
		}
		st.settleSkills(messages.TurnTerminal{TurnID: "t1", Kind: tc.kind})
		got := ""
		if sk := st.Skills["/s/SKILL.md"]; sk != nil {
			got = sk.State
		}
		if got != tc.want {
			t.Errorf("after a %s turn: %q, want %q", tc.kind, got, tc.want)
		}
	}
}

// RestoreSkills labels the session-active skills of a rebuilt agent
// restored; they stay active: a new read neither activates them again
// nor demotes them.
func TestRestoreSkills(t *testing.T) {
	st := &State{Turn: &TurnState{ID: "t2"}, Skills: map[string]*ActiveSkill{
		"/h/skills/deploy/SKILL.md": {Name: "deploy", EntrypointPath: "/h/skills/deploy/SKILL.md", State: SkillSessionActive},
		"/w/lint/SKILL.md":          {Name: "lint", EntrypointPath: "/w/lint/SKILL.md", State: SkillTurnActive, TurnID: "t2"},
	}}
	st.RestoreSkills()
	if got := st.Skills["/h/skills/deploy/SKILL.md"].State; got != SkillRestored {
		t.Fatalf("session-active skill after RestoreSkills = %q, want restored", got)
	}
	if got := st.Skills["/w/lint/SKILL.md"].State; got != SkillTurnActive {
		t.Fatalf("turn-active skill after RestoreSkills = %q, want it unchanged", got)
	}
	catalog := []SkillEntry{{Name: "deploy", Scope: "agent", Dir: "/h/skills/deploy", Path: "/h/skills/deploy/SKILL.md"}}
	call := messages.ToolCall{ID: "c1", Name: "ExecCommand", Arguments: json.RawMessage(`{"cmd":"cat /h/skills/deploy/SKILL.md"}`)}
	if b := SkillActivations(st, catalog, call, ""); len(b) != 0 {
		t.Fatalf("reading a restored skill again = %v, want no activation", b)
	}
	st.applySkillActivated(messages.SkillActivated{TurnID: "t2", Skill: "deploy", EntrypointPath: "/h/skills/deploy/SKILL.md"})
	if got := st.Skills["/h/skills/deploy/SKILL.md"].State; got != SkillRestored {
		t.Fatalf("restored skill after an activation = %q, want restored", got)
	}
}
