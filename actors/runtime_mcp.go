package actors

import (
	"context"
	"fmt"
	"slices"

	"github.com/holon-actors/holon-actors/mcp"
	"github.com/holon-actors/holon-actors/supervision"
)

// startMCP makes each MCP server an actor under the runtime, supervised
// with the runtime's restart policy: a panicking server actor restarts
// after its backoff; one that spends the budget is quarantined.
func (r *Runtime) startMCP(o RuntimeOptions) error {
	if r.deps.MCP == nil {
		return nil
	}
	pid, err := r.deps.MCP.Spawn(r.sys.Root, o.Restart,
		supervision.WithScheduler(o.Scheduler), supervision.WithClock(r.deps.Clock.Now))
	if err != nil {
		return err
	}
	r.mcp = pid
	return nil
}

// stopMCP stops the MCP server actors, which close their servers (a
// stdio server's process group with it).
func (r *Runtime) stopMCP() error {
	if r.mcp == nil {
		return nil
	}
	if err := r.sys.Root.StopFuture(r.mcp).Wait(); err != nil {
		return fmt.Errorf("stop mcp servers: %w", err)
	}
	return nil
}

// MCPServers reports the runtime's MCP servers: state, tools and last
// error; with agent set, only the servers that agent uses (its own
// selection, else the config's).
func (r *Runtime) MCPServers(ctx context.Context, agent string) []mcp.Status {
	m := r.deps.MCP
	if m == nil {
		return []mcp.Status{}
	}
	all := m.Status()
	if agent == "" {
		return all
	}
	uses := m.ServersIn(r.mcpSelectionOf(ctx, agent))
	out := []mcp.Status{}
	for _, s := range all {
		if slices.Contains(uses, s.Name) {
			out = append(out, s)
		}
	}
	return out
}

// MCPTools lists MCP server name's tools, starting the server when idle.
// An unknown name is mcp.ErrUnknownServer.
func (r *Runtime) MCPTools(ctx context.Context, name string) ([]*mcp.Tool, error) {
	if r.deps.MCP == nil {
		return nil, mcp.ErrUnknownServer
	}
	return r.deps.MCP.ServerTools(ctx, name)
}

// mcpSelectionOf is agent id's MCP selection: its journaled one when it
// exists and has one, else the config's. It never creates the agent.
func (r *Runtime) mcpSelectionOf(ctx context.Context, id string) mcp.Selection {
	if ok, err := r.Exists(ctx, id); err == nil && ok {
		if in, err := r.Info(ctx, id); err == nil && in.MCP != nil {
			return mcp.SelectionFrom(*in.MCP)
		}
	}
	return r.deps.MCP.Config().SelectionOf(id)
}
