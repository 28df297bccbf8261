package messages

// Skill load reasons of SkillActivated.
const (
	// SkillReadSkillMD: a command read the skill's SKILL.md.
	SkillReadSkillMD = "read_skill_md"
	// SkillRunScript: a command ran one of the skill's scripts/*.
	SkillRunScript = "run_skill_script"
)

// SkillActivated records a discovered skill becoming turn-active: a
// successful command read its SKILL.md or ran one of its scripts. Path is
// what triggered it (the SKILL.md, or the script); EntrypointPath is
// always the skill's SKILL.md. A turn that completes makes its
// turn-active skills session-active, with no event of its own.
type SkillActivated struct {
	TurnID         string `json:"turn_id"`
	Skill          string `json:"skill"`
	Scope          string `json:"scope"`
	LoadReason     string `json:"load_reason"`
	Path           string `json:"path"`
	EntrypointPath string `json:"entrypoint_path"`
}

func (SkillActivated) EventType() EventType { return EventSkillActivated }
