package node

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/mcp"
	"github.com/holon-actors/holon-actors/messages"
)

// mcpProcsFile records the running stdio MCP servers' process groups.
const mcpProcsFile = "mcp-procs.json"

// startMCP reads config.json's mcp_servers and mcp_agents (a bad field is
// ErrConfig, naming it), kills what a killed runtime's stdio servers left
// behind, and gives the agents the manager of the servers, which start as
// agents need them. The values of the variables the servers' env and
// headers name are the runtime's secrets from now on.
func (n *Node) startMCP(deps *actors.AgentDeps) error {
	model := n.cfg.Agents.Model
	cfg, err := mcp.ParseConfig(model.MCPServers, model.MCPAgents)
	if err != nil {
		return invalid(err)
	}
	deps.ToolApproval = model.ToolApproval
	procs := mcp.NewProcTable(filepath.Join(n.runDir(), mcpProcsFile))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if found, err := procs.Sweep(ctx); err != nil {
		n.cfg.Log.Warn().Err(err).Msg("mcp servers left by the previous run not all stopped")
	} else if found > 0 {
		n.cfg.Log.Warn().Int("groups", found).Msg("stopped mcp servers left by the previous run")
	}
	if len(cfg.Servers) == 0 {
		return nil
	}
	for _, s := range cfg.Servers {
		for _, name := range s.Env {
			n.cfg.Secrets.Add(os.Getenv(name))
		}
		for _, name := range s.Headers {
			n.cfg.Secrets.Add(os.Getenv(name))
		}
	}
	var m *mcp.Manager
	m = mcp.NewManager(cfg, mcp.Options{
		Getenv: os.Getenv, Environ: deps.ToolEnv.Env, Procs: procs, Log: n.cfg.Log,
		OnQuarantine: func(server, msg string) { n.tellMCPUsers(m.Users(server), msg) },
	})
	deps.MCP, n.mcp = m, m
	return nil
}

// tellMCPUsers queues the system notification (source mcp) of a
// quarantined server for the agents that used it.
func (n *Node) tellMCPUsers(ids []string, msg string) {
	note := messages.SystemNotification{Kind: "mcp.quarantined", Level: messages.LevelError, Message: msg}
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := n.rt.QueueSystemNotification(ctx, id, note); err != nil {
			n.cfg.Log.Warn().Err(err).Str("agent_id", id).Msg("mcp quarantine notice not queued")
		}
		cancel()
	}
}

// closeMCP shuts the MCP servers down (stdio servers' process groups
// with them).
func (n *Node) closeMCP() error {
	if n.mcp == nil {
		return nil
	}
	if err := n.mcp.Close(); err != nil {
		n.cfg.Log.Warn().Err(err).Msg("mcp servers closed with an error")
	}
	return nil
}
