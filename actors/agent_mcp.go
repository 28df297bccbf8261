package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/mcp"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/tools"
)

// mcpCatalog is what an agent knows of its MCP servers' tools. Receive
// never talks to a server: a goroutine asks the manager before each model
// step (starting idle servers, which may take a while) and posts the
// tools back (mcpToolsRead).
type mcpCatalog struct {
	// tools are the tools last read, by catalog name, in specs' order.
	tools map[string]*mcp.Tool
	specs []providers.ToolSpec
	// fresh is set when tools were read since the last model step.
	fresh bool
	// reading is set while a read of generation gen is under way.
	reading bool
	gen     uint64
}

// mcpToolsRead carries a read's tools back to the agent.
type mcpToolsRead struct {
	gen   uint64
	tools []*mcp.Tool
}

// refreshMCP starts reading the agent's MCP tools before a model step,
// unless they were read since the last one; true when the agent must wait
// for mcpToolsRead before it builds the request again. An agent without
// MCP servers never waits.
func (a *agent) refreshMCP(c actor.Context) bool {
	if a.deps.MCP == nil || len(a.deps.MCP.ServersIn(a.mcpSelection())) == 0 {
		return false
	}
	if a.mcp.reading {
		return true
	}
	if a.mcp.fresh {
		a.mcp.fresh = false // this model step uses them; the next reads again
		return false
	}
	a.mcp.gen++
	a.mcp.reading = true
	gen, self, root, m, id, ctx, sel := a.mcp.gen, c.Self(), c.ActorSystem().Root, a.deps.MCP, a.id, a.ctx, a.mcpSelection()
	go func() {
		root.Send(self, &mcpToolsRead{gen: gen, tools: m.ToolsIn(ctx, id, sel)})
	}()
	return true
}

// mcpToolsReadBack stores a read's tools; false for a stale read.
func (a *agent) mcpToolsReadBack(m *mcpToolsRead) bool {
	if m.gen != a.mcp.gen || !a.mcp.reading {
		return false
	}
	a.mcp.reading, a.mcp.fresh = false, true
	a.mcp.tools = make(map[string]*mcp.Tool, len(m.tools))
	a.mcp.specs = a.mcp.specs[:0]
	for _, t := range m.tools {
		s := t.Spec()
		a.mcp.tools[s.Name] = t
		a.mcp.specs = append(a.mcp.specs, providers.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	return true
}

// mcpSpecs is the MCP part of the agent's catalog.
func (a *agent) mcpSpecs() []providers.ToolSpec { return a.mcp.specs }

// mcpTool is the agent's MCP tool called name.
func (a *agent) mcpTool(name string) (tools.Tool, bool) {
	if t, ok := a.mcp.tools[name]; ok {
		return t, true
	}
	if a.deps.MCP == nil {
		return nil, false
	}
	return a.deps.MCP.ToolIn(a.mcpSelection(), name)
}

// approvalMode is the agent's Env.Approval: the configured policy's mode
// for the tool; without a matching rule, ask for an MCP tool its server
// marks destructive (or one not listed yet, which may be), else auto.
func (a *agent) approvalMode(name string) messages.ApprovalMode {
	if mode, ok := a.deps.ToolApproval.Mode(a.id, name); ok {
		return mode
	}
	if t, ok := a.mcpTool(name); ok {
		if mt, ok := t.(*mcp.Tool); ok && mt.Destructive {
			return messages.ApprovalAsk
		}
	}
	return messages.ApprovalAuto
}
