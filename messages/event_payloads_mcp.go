package messages

import (
	"fmt"
	"strings"
)

// MCPSelection is which configured MCP servers an agent uses: every one
// (All), or the listed ones (none when Servers is empty).
type MCPSelection struct {
	All     bool     `json:"all,omitempty"`
	Servers []string `json:"servers,omitempty"`
}

// String is the selection as agents create --mcp takes it: all, none, or
// the names joined by commas.
func (s MCPSelection) String() string {
	switch {
	case s.All:
		return "all"
	case len(s.Servers) == 0:
		return "none"
	}
	return strings.Join(s.Servers, ",")
}

// Validate refuses a selection that is both all and a list.
func (s MCPSelection) Validate() error {
	if s.All && len(s.Servers) > 0 {
		return fmt.Errorf("%w: an MCP selection of all lists no servers", ErrInvalidEvent)
	}
	return nil
}

// MCPSelectionSet records the MCP servers the operator chose for the
// agent (agents create --mcp); it overrides config.json mcp_agents for
// that agent from then on.
type MCPSelectionSet struct {
	Selection MCPSelection `json:"selection"`
	Reason    string       `json:"reason,omitempty"`
}

func (MCPSelectionSet) EventType() EventType { return EventMCPSelectionSet }

// Validate checks the selection.
func (p MCPSelectionSet) Validate() error { return p.Selection.Validate() }
