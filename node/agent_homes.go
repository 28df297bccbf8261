package node

import (
	"context"
	"time"

	"github.com/holon-actors/holon-actors/agenthome"
	"github.com/holon-actors/holon-actors/persistence"
)

// agentHomes makes agents' homes under the runtime home for the control
// API (control.AgentHomes).
type agentHomes struct {
	home string
	cfg  agenthome.Config
}

// Create makes agentID's home from template or instructions; with
// neither, it gives an existing home what is missing of its layout and
// holon-default's AGENTS.md when it has none, as for the default agent.
func (h agentHomes) Create(ctx context.Context, agentID, template, instructions string) error {
	dir, err := persistence.AgentHome(h.home, agentID)
	if err != nil {
		return err
	}
	if template == "" && instructions == "" {
		_, err := agenthome.EnsureDefault(h.cfg, dir, time.Now())
		return err
	}
	return agenthome.Create(ctx, h.cfg, dir, agenthome.Spec{Template: template, Instructions: instructions, Now: time.Now()})
}

// Discard removes agentID's home.
func (h agentHomes) Discard(agentID string) error {
	dir, err := persistence.AgentHome(h.home, agentID)
	if err != nil {
		return err
	}
	return agenthome.Discard(dir)
}

// seedHomes seeds the built-in templates and gives the default agent's
// home its layout and holon-default's AGENTS.md when it has none. A
// failure is logged: the runtime serves without them.
func (n *Node) seedHomes() {
	cfg := n.cfg.Homes
	if cfg.TemplatesDir != "" {
		res, err := agenthome.SeedBuiltins(cfg.TemplatesDir, time.Now())
		if err != nil {
			n.cfg.Log.Warn().Err(err).Str("dir", cfg.TemplatesDir).Msg("built-in templates not seeded")
		}
		for id, r := range res {
			n.cfg.Log.Debug().Str("template", id).Str("outcome", r).Msg("built-in template seeded")
		}
	}
	dir, err := persistence.AgentHome(n.cfg.Home, n.cfg.Agents.DefaultAgent)
	if err == nil {
		_, err = agenthome.EnsureDefault(cfg, dir, time.Now())
	}
	if err != nil {
		n.cfg.Log.Warn().Err(err).Msg("default agent's home not initialized")
	}
}
