package agenthome

import "errors"

var (
	// ErrTemplate is returned when a template selector is not one of the
	// three forms, or names a template that does not exist or is invalid
	// (no AGENTS.md, a bad skills.json).
	ErrTemplate = errors.New("agenthome: bad template")
	// ErrUnreachable is returned when a remote template or skill cannot be
	// fetched.
	ErrUnreachable = errors.New("agenthome: template source unreachable")
	// ErrSkillRef is returned for a skill ref in skills.json that cannot be
	// resolved or installed.
	ErrSkillRef = errors.New("agenthome: bad skill ref")
	// ErrHomeExists is returned by Create when the agent's home already
	// holds instructions (an earlier agent's home left in place).
	ErrHomeExists = errors.New("agenthome: agent home already exists")
)
