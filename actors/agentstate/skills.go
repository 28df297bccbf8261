package agentstate

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
)

// Skill activation states.
const (
	SkillTurnActive    = "turn_active"
	SkillSessionActive = "session_active"
	// SkillRestored is a session-active skill of an agent rebuilt from its
	// journal (a restart, a reactivation): active as before, labelled so
	// the operator can tell it from one loaded in this run.
	SkillRestored = "restored"
)

// sessionLong reports a skill active for the rest of the session.
func sessionLong(sk *ActiveSkill) bool {
	return sk != nil && (sk.State == SkillSessionActive || sk.State == SkillRestored)
}

// RestoreSkills labels the session-active skills of a state rebuilt from
// the journal restored.
func (s *State) RestoreSkills() {
	for _, sk := range s.Skills {
		if sk.State == SkillSessionActive {
			sk.State = SkillRestored
		}
	}
}

// applySkillActivated marks the skill turn-active (a session-active one
// stays so).
func (s *State) applySkillActivated(p messages.SkillActivated) {
	if s.Skills == nil {
		s.Skills = map[string]*ActiveSkill{}
	}
	if cur := s.Skills[p.EntrypointPath]; sessionLong(cur) {
		return
	}
	s.Skills[p.EntrypointPath] = &ActiveSkill{Name: p.Skill, Scope: p.Scope, EntrypointPath: p.EntrypointPath,
		State: SkillTurnActive, TurnID: p.TurnID}
}

// settleSkills promotes the turn's skills to session-active when it
// completed, and drops them when it was aborted (an interrupted turn is
// replayed: its skills stay turn-active).
func (s *State) settleSkills(p messages.TurnTerminal) {
	for k, sk := range s.Skills {
		if sk.State != SkillTurnActive || sk.TurnID != p.TurnID {
			continue
		}
		switch p.Kind {
		case messages.TerminalCompleted:
			sk.State, sk.TurnID = SkillSessionActive, ""
		case messages.TerminalAborted:
			delete(s.Skills, k)
		}
	}
}

// ActiveSkills are the agent's active skills, by name.
func (s *State) ActiveSkills() []ActiveSkill {
	out := make([]ActiveSkill, 0, len(s.Skills))
	for _, sk := range s.Skills {
		out = append(out, *sk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// commandTools are the tools whose successful calls can activate a skill.
var commandTools = map[string]bool{"ExecCommand": true, "ExecCommandBatch": true}

// SkillActivations decides the skill_activated events of a successful
// command call: one for each catalog skill whose SKILL.md it names
// (read_skill_md) or one of whose scripts/* it names (run_skill_script),
// by absolute path or by a path relative to cwd (the directory the
// command ran in: the active workspace's, or the agent home), unless the
// skill is already active this turn or this session.
func SkillActivations(st *State, catalog []SkillEntry, call messages.ToolCall, cwd string) Batch {
	if !commandTools[call.Name] || st.Turn == nil || len(catalog) == 0 {
		return nil
	}
	text := strings.Join(argStrings(call.Arguments), "\n")
	cwd = commandDir(call, cwd)
	var b Batch
	for _, sk := range catalog {
		if cur := st.Skills[sk.Path]; sessionLong(cur) || (cur != nil && cur.TurnID == st.Turn.ID) {
			continue
		}
		reason, path := skillMention(text, sk, cwd)
		if reason == "" {
			continue
		}
		b = append(b, messages.SkillActivated{TurnID: st.Turn.ID, Skill: sk.Name, Scope: sk.Scope, LoadReason: reason,
			Path: path, EntrypointPath: sk.Path})
	}
	return b
}

// pathAt is the path starting at i in text, up to the next space, quote
// or shell separator.
func pathAt(text string, i int) string {
	end := strings.IndexAny(text[i:], " \t\n'\";|&)")
	if end < 0 {
		return text[i:]
	}
	return text[i : i+end]
}

// argStrings are every string value in a call's JSON arguments.
func argStrings(raw json.RawMessage) []string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return []string{string(raw)}
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// skillsSection is the prompt's skills layer: the catalog's metadata and
// the active skills, never a SKILL.md body.
func skillsSection(st *State, catalog []SkillEntry) string {
	if len(catalog) == 0 && len(st.Skills) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("## Skills\nIf a listed skill matches the task, open its SKILL.md (with ExecCommand) before following its workflow; run its scripts/ from there.")
	for _, sk := range catalog {
		fmt.Fprintf(&sb, "\n- %s (%s): %s [%s]", sk.Name, sk.Scope, cmpOr(sk.Description, "no description"), sk.Path)
	}
	for _, sk := range st.ActiveSkills() {
		fmt.Fprintf(&sb, "\nActive: %s (%s, %s)", sk.Name, sk.State, sk.EntrypointPath)
	}
	return sb.String()
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
