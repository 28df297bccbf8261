package actors

import (
	"context"
	"errors"
	"fmt"

	"github.com/holon-actors/holon-actors/mcp"
	"github.com/holon-actors/holon-actors/messages"
)

// SetMCPSelection asks an agent to record which MCP servers it uses
// (agents create --mcp); the reply is *SetMCPSelectionResult. Its next
// model step offers those servers' tools only.
type SetMCPSelection struct {
	Selection mcp.Selection
	Reason    string
}

// Priority implements mailbox.Prioritized: like lifecycle commands, before work.
func (*SetMCPSelection) Priority() messages.Priority { return messages.PriorityInterject }

// SetMCPSelectionResult answers SetMCPSelection.
type SetMCPSelectionResult struct {
	Err error
}

// ErrNoMCP is returned for an MCP selection naming servers when the
// runtime has none configured.
var ErrNoMCP = errors.New("this runtime serves no MCP servers")

// CheckMCPSelection refuses a selection naming a server the runtime does
// not have (wrapping mcp.ErrUnknownServer), before anything is created.
func (r *Runtime) CheckMCPSelection(sel mcp.Selection) error {
	if r.deps.MCP == nil {
		if len(sel.Servers) > 0 {
			return fmt.Errorf("%w: %w: %q (add it to config.json mcp_servers, or give --mcp all or none)",
				mcp.ErrUnknownServer, ErrNoMCP, sel.Servers[0])
		}
		return nil
	}
	return r.deps.MCP.CheckSelection(sel)
}

// SetMCPSelection records agent id's MCP servers, creating the agent if
// it does not exist; a selection naming an unknown server changes nothing.
func (r *Runtime) SetMCPSelection(ctx context.Context, id string, sel mcp.Selection, reason string) error {
	if err := r.CheckMCPSelection(sel); err != nil {
		return err
	}
	res, err := r.ask(ctx, id, &SetMCPSelection{Selection: sel, Reason: reason})
	if err != nil {
		return err
	}
	return res.(*SetMCPSelectionResult).Err
}

// setMCPSelection journals the selection and drops the tools read under
// the old one.
func (a *agent) setMCPSelection(m *SetMCPSelection) *SetMCPSelectionResult {
	err := a.persist(messages.MCPSelectionSet{Selection: m.Selection.Message(), Reason: reasonOr(m.Reason, "operator MCP selection")})
	if err != nil {
		return &SetMCPSelectionResult{Err: fmt.Errorf("record the MCP servers of %s: %w", a.id, err)}
	}
	a.mcp.fresh = false
	return &SetMCPSelectionResult{}
}

// mcpSelection is which MCP servers the agent uses: its own journaled
// choice, else config.json mcp_agents'.
func (a *agent) mcpSelection() mcp.Selection {
	if a.state != nil && a.state.MCP != nil {
		return mcp.SelectionFrom(*a.state.MCP)
	}
	return a.deps.MCP.Config().SelectionOf(a.id)
}
