package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/messages"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/agenthome"
	"github.com/holon-actors/holon-actors/persistence"
)

// guidanceCache is the agent's instruction files as last read. Receive
// never reads them: a goroutine reads them once per turn, before the
// turn's first model request, and posts them back (guidanceRead), so an
// edit of AGENTS.md reaches the prompt at the next turn without a restart.
type guidanceCache struct {
	// g is what the prompt carries (Env.Guidance).
	g agentstate.Guidance
	// turn is the turn g was read for; reading is set while a read of
	// generation gen is under way.
	turn    string
	reading bool
	gen     uint64
}

// guidanceRead carries a read's guidance back to the agent.
type guidanceRead struct {
	gen  uint64
	turn string
	g    agentstate.Guidance
	err  error
}

// refreshGuidance starts reading the agent's instruction files unless
// they were read for the turn in flight; true when it did, and the agent
// then waits for guidanceRead before it builds the request. An agent
// without a home reads none.
func (a *agent) refreshGuidance(c actor.Context) bool {
	t := a.state.Turn
	if t == nil || a.deps.ToolEnv.Home == "" || a.guide.turn == t.ID {
		return false
	}
	home, err := persistence.AgentHome(a.deps.ToolEnv.Home, a.id)
	if err != nil {
		a.guide.turn = t.ID // no home, no guidance: the prompt goes without
		return false
	}
	a.guide.gen++
	a.guide.reading = true
	anchor, dir := a.workspaceAnchor()
	agentsDir, scopes := a.skillScopes()
	gen, turn, self, root := a.guide.gen, t.ID, c.Self(), c.ActorSystem().Root
	go func() {
		if anchor == "" && dir != "" {
			anchor = agenthome.Anchor(dir)
		}
		g, err := readGuidance(home, anchor)
		g.Skills = discoverSkills(agentsDir, home, anchor, scopes)
		root.Send(self, &guidanceRead{gen: gen, turn: turn, g: g, err: err})
	}()
	return true
}

// readGuidance reads the agent-scoped AGENTS.md of home and the
// workspace-scoped one of anchor ("" for none); what it could read comes
// back with the first error.
func readGuidance(home, anchor string) (agentstate.Guidance, error) {
	g := agentstate.Guidance{AgentHome: home}
	in, err := agenthome.LoadAgent(home, agenthome.DefaultInstructionsLimit)
	g.Agent = sourceOf(in)
	if anchor != "" {
		g.WorkspaceAnchor = anchor
		ws, werr := agenthome.LoadWorkspace(g.WorkspaceAnchor, agenthome.DefaultInstructionsLimit)
		g.Workspace = sourceOf(ws)
		if err == nil {
			err = werr
		}
	}
	return g, err
}

func sourceOf(in *agenthome.Instructions) *agentstate.InstructionSource {
	if in == nil {
		return nil
	}
	return &agentstate.InstructionSource{Scope: in.Scope, Path: in.Path, Kind: in.Kind, Bytes: in.Bytes,
		Truncated: in.Truncated, Text: in.Text}
}

// guidanceReadBack stores a read's guidance; false for a stale read. A
// file that could not be read is logged and left out of the prompt.
func (a *agent) guidanceReadBack(m *guidanceRead) bool {
	if m.gen != a.guide.gen || !a.guide.reading {
		return false
	}
	a.guide.reading = false
	a.guide.g, a.guide.turn = m.g, m.turn
	if m.err != nil {
		a.deps.Log.Warn().Err(m.err).Str("agent_id", a.id).Msg("instructions not read")
	}
	return true
}

// skillScopes are the skill scopes the agent sees: user, agent and
// workspace for the default agent; agent and workspace for any other.
func (a *agent) skillScopes() (agentsDir string, scopes []string) {
	if a.state.Kind == messages.AgentDefault || a.id == a.deps.DefaultAgentID {
		return a.deps.ToolEnv.AgentsDir, []string{agenthome.SkillScopeUser, agenthome.SkillScopeAgent, agenthome.SkillScopeWorkspace}
	}
	return "", []string{agenthome.SkillScopeAgent, agenthome.SkillScopeWorkspace}
}

// discoverSkills is the skills catalog of scopes (file reads: off the
// actor).
func discoverSkills(agentsDir, home, anchor string, scopes []string) []agentstate.SkillEntry {
	var out []agentstate.SkillEntry
	for _, s := range agenthome.Discover(agenthome.SkillRoots(agentsDir, home, anchor), scopes...) {
		out = append(out, agentstate.SkillEntry{Name: s.Name, Description: s.Description, Scope: s.Scope, Dir: s.Dir, Path: s.Path})
	}
	return out
}
