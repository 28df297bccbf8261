package actors

// commandCwd is the directory the agent's commands run in when they give
// no workdir: its execution root (a worktree, the active workspace), else
// the runtime's workspace, else its home. Skill paths relative to it
// activate skills (agentstate.SkillActivations).
func (a *agent) commandCwd() string {
	if r := a.executionRoot(); r != "" {
		return r
	}
	if a.deps.ToolEnv.Workspace != "" {
		return a.deps.ToolEnv.Workspace
	}
	return a.guide.g.AgentHome
}
