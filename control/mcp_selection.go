package control

import (
	"context"
	"net/http"

	"github.com/holon-actors/holon-actors/mcp"
)

// mcpSelector is what agents create --mcp needs of the runtime.
type mcpSelector interface {
	CheckMCPSelection(sel mcp.Selection) error
	SetMCPSelection(ctx context.Context, id string, sel mcp.Selection, reason string) error
}

const mcpSelectionHint = `send mcp as "all", "none" or a comma-separated list of the server names holon-actors mcp list shows`

// checkMCPSelection refuses req's MCP selection when it names a server
// the runtime lacks, before the agent or its home is made.
func (s *Server) checkMCPSelection(req CreateAgentRequest) *Error {
	if req.MCP == "" {
		return nil
	}
	rt, ok := s.cfg.Runtime.(mcpSelector)
	if !ok {
		return errorf(http.StatusServiceUnavailable, KindUnavailable, mcpHint, "this runtime cannot choose an agent's MCP servers")
	}
	if err := rt.CheckMCPSelection(mcp.ParseSelection(req.MCP)); err != nil {
		return errorf(http.StatusUnprocessableEntity, KindInvalid, mcpSelectionHint, "mcp: %v", err)
	}
	return nil
}

// setMCPSelection journals req's MCP selection, when given, on its new agent.
func (s *Server) setMCPSelection(ctx context.Context, req CreateAgentRequest) error {
	if req.MCP == "" {
		return nil
	}
	return s.cfg.Runtime.(mcpSelector).SetMCPSelection(ctx, req.AgentID, mcp.ParseSelection(req.MCP), "set at creation")
}
