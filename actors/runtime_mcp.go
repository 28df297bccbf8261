package actors

import (
	"context"
	"slices"

	"github.com/holon-actors/holon-actors/mcp"
)

// MCPServers reports the runtime's MCP servers: state, tools and last
// error; with agent set, only the servers that agent uses.
func (r *Runtime) MCPServers(agent string) []mcp.Status {
	m := r.deps.MCP
	if m == nil {
		return []mcp.Status{}
	}
	all := m.Status()
	if agent == "" {
		return all
	}
	uses := m.ServersOf(agent)
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
