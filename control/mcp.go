package control

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	"github.com/holon-actors/holon-actors/mcp"
)

// MCPServerList is GET /mcp/servers: the runtime's MCP servers.
type MCPServerList struct {
	AgentID string       `json:"agent_id,omitempty"`
	Servers []mcp.Status `json:"servers"`
}

// MCPTool is one tool of an MCP server as agents are offered it.
type MCPTool struct {
	Name        string          `json:"name"` // mcp__<server>__<tool>
	Description string          `json:"description"`
	Destructive bool            `json:"destructive"`
	Parameters  json.RawMessage `json:"parameters"`
}

// MCPToolList is GET /mcp/servers/{name}/tools.
type MCPToolList struct {
	Server string    `json:"server"`
	Tools  []MCPTool `json:"tools"`
}

// mcpRuntime is what the MCP routes need of the runtime.
type mcpRuntime interface {
	MCPServers(ctx context.Context, agent string) []mcp.Status
	MCPTools(ctx context.Context, name string) ([]*mcp.Tool, error)
}

const mcpHint = "configure servers in config.json mcp_servers and restart the runtime"

func (s *Server) mcpRuntime() (mcpRuntime, *Error) {
	rt, ok := s.cfg.Runtime.(mcpRuntime)
	if !ok {
		return nil, errorf(http.StatusServiceUnavailable, KindUnavailable, mcpHint, "this runtime serves no MCP servers")
	}
	return rt, nil
}

// mcpServers lists the MCP servers, or agent's with ?agent=.
func (s *Server) mcpServers(w http.ResponseWriter, r *http.Request) {
	rt, e := s.mcpRuntime()
	if e != nil {
		writeError(w, e)
		return
	}
	agent := r.URL.Query().Get("agent")
	writeJSON(w, http.StatusOK, MCPServerList{AgentID: agent, Servers: rt.MCPServers(r.Context(), agent)})
}

// mcpTools lists one server's tools, starting it when idle.
func (s *Server) mcpTools(w http.ResponseWriter, r *http.Request) {
	rt, e := s.mcpRuntime()
	if e != nil {
		writeError(w, e)
		return
	}
	name := r.PathValue("name")
	list, err := rt.MCPTools(r.Context(), name)
	switch {
	case errors.Is(err, mcp.ErrUnknownServer):
		writeError(w, errorf(http.StatusNotFound, KindNotFound, "list the servers with holon-actors mcp list", "no MCP server %q", name))
		return
	case err != nil:
		writeError(w, errorf(http.StatusServiceUnavailable, KindUnavailable, "see its last error with holon-actors mcp list", "%v", err))
		return
	}
	out := MCPToolList{Server: name, Tools: []MCPTool{}}
	for _, t := range list {
		sp := t.Spec()
		out.Tools = append(out.Tools, MCPTool{Name: sp.Name, Description: sp.Description, Destructive: t.Destructive, Parameters: sp.Parameters})
	}
	writeJSON(w, http.StatusOK, out)
}

// MCPServers returns the runtime's MCP servers; agent, when set, keeps
// the ones that agent uses.
func (c *Client) MCPServers(ctx context.Context, agent string) (MCPServerList, error) {
	var out MCPServerList
	path := "/mcp/servers"
	if agent != "" {
		path += "?agent=" + url.QueryEscape(agent)
	}
	return out, c.do(ctx, http.MethodGet, path, nil, &out)
}

// MCPTools returns MCP server name's tools.
func (c *Client) MCPTools(ctx context.Context, name string) (MCPToolList, error) {
	var out MCPToolList
	return out, c.do(ctx, http.MethodGet, "/mcp/servers/"+url.PathEscape(name)+"/tools", nil, &out)
}
