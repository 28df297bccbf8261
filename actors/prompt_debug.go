package actors

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/agenthome"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// PromptDebug is what an agent's next prompt is made of (debug prompt):
// where it lives and works, the instruction files loaded, and the frame.
type PromptDebug struct {
	AgentID         string `json:"agent_id"`
	AgentHome       string `json:"agent_home"`
	WorkspaceID     string `json:"workspace_id"`
	WorkspaceAnchor string `json:"workspace_anchor,omitempty"`
	ExecutionRoot   string `json:"execution_root"`
	Cwd             string `json:"cwd"`
	// CommandPolicy is the execution policy its commands are checked
	// against; nil: none.
	CommandPolicy *messages.CommandPolicy `json:"command_policy,omitempty"`
	// InstructionSources are the instruction files loaded (path, kind,
	// size), agent first.
	InstructionSources []agentstate.InstructionSource `json:"instruction_sources"`
	// Skills is the skills catalog (SKILL.md front matter and paths) and
	// ActiveSkills the skills activated.
	Skills       []agentstate.SkillEntry  `json:"skills"`
	ActiveSkills []agentstate.ActiveSkill `json:"active_skills"`
	// Tools are the names of the tools offered.
	Tools []string `json:"tools"`
	// Frame is the assembled prompt frame.
	Frame providers.PromptFrame `json:"frame"`
}

// guidanceWhere asks an agent where its guidance is read from; the reply
// is *guidanceSpot.
type guidanceWhere struct{}

type guidanceSpot struct {
	home, anchor, dir, agentsDir string
	scopes                       []string
}

// debugPrompt asks an agent to assemble its prompt frame with g; the
// reply is *PromptDebug.
type debugPrompt struct{ g agentstate.Guidance }

// loadedGuidance asks an agent for the instruction files its last prompt
// carried; the reply is []agentstate.InstructionSource.
type loadedGuidance struct{}

func (*guidanceWhere) Priority() messages.Priority  { return messages.PriorityInterject }
func (*debugPrompt) Priority() messages.Priority    { return messages.PriorityInterject }
func (*loadedGuidance) Priority() messages.Priority { return messages.PriorityInterject }

// DebugPrompt reads agent id's instruction files now (in the caller's
// goroutine) and has the agent assemble the prompt frame its next model
// request would carry with them. It does not create the agent.
func (r *Runtime) DebugPrompt(ctx context.Context, id string) (PromptDebug, error) {
	if ok, err := r.Exists(ctx, id); err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("agent %s: %w", id, ErrNoAgent)
		}
		return PromptDebug{}, err
	}
	res, err := r.ask(ctx, id, &guidanceWhere{})
	if err != nil {
		return PromptDebug{}, err
	}
	spot := res.(*guidanceSpot)
	anchor := spot.anchor
	if anchor == "" && spot.dir != "" {
		anchor = agenthome.Anchor(spot.dir)
	}
	var g agentstate.Guidance
	if spot.home != "" {
		if g, err = readGuidance(spot.home, anchor); err != nil {
			return PromptDebug{}, err
		}
		g.Skills = discoverSkills(spot.agentsDir, spot.home, anchor, spot.scopes)
	}
	if res, err = r.ask(ctx, id, &debugPrompt{g: g}); err != nil {
		return PromptDebug{}, err
	}
	return *res.(*PromptDebug), nil
}

// LoadedAgentsMD are the instruction files agent id's last prompt
// carried (metadata only).
func (r *Runtime) LoadedAgentsMD(ctx context.Context, id string) ([]agentstate.InstructionSource, error) {
	res, err := r.ask(ctx, id, &loadedGuidance{})
	if err != nil {
		return nil, err
	}
	return res.([]agentstate.InstructionSource), nil
}

// answerGuidance answers the guidance messages.
func (a *agent) answerGuidance(m any) any {
	switch m := m.(type) {
	case *guidanceWhere:
		anchor, dir := a.workspaceAnchor()
		agentsDir, scopes := a.skillScopes()
		return &guidanceSpot{home: a.deps.ToolEnv.workspaceHome(a.id), anchor: anchor, dir: dir, agentsDir: agentsDir, scopes: scopes}
	case *debugPrompt:
		return a.promptDebug(m.g)
	case *loadedGuidance:
		return a.guide.g.Sources()
	}
	return nil
}

// promptDebug assembles the frame of the next prompt with g.
func (a *agent) promptDebug(g agentstate.Guidance) *PromptDebug {
	env := a.env()
	env.Guidance, env.Plans = g, nil // plans are read before a real request only
	catalog := a.toolCatalog()
	home := a.deps.ToolEnv.workspaceHome(a.id)
	v := agentstate.Workspaces(a.state, home)
	d := &PromptDebug{AgentID: a.id, AgentHome: home, WorkspaceID: v.Active.WorkspaceID, WorkspaceAnchor: g.WorkspaceAnchor,
		ExecutionRoot: v.Active.ExecutionRoot, Cwd: v.Active.Cwd, CommandPolicy: a.commandPolicy(),
		InstructionSources: g.Sources(), Frame: agentstate.Frame(a.state, env, catalog),
		Skills: append([]agentstate.SkillEntry{}, g.Skills...), ActiveSkills: a.state.ActiveSkills()}
	switch {
	case a.state.ExecutionRoot != "": // a worktree-mode child
		d.WorkspaceID, d.ExecutionRoot, d.Cwd = "worktree", a.state.ExecutionRoot, a.state.ExecutionRoot
	case a.state.ActiveWorkspace == nil && a.deps.ToolEnv.Workspace != "":
		d.WorkspaceID, d.ExecutionRoot, d.Cwd = "workspace", a.deps.ToolEnv.Workspace, a.deps.ToolEnv.Workspace
	}
	if d.InstructionSources == nil {
		d.InstructionSources = []agentstate.InstructionSource{}
	}
	for _, t := range catalog {
		d.Tools = append(d.Tools, t.Name)
	}
	return d
}
