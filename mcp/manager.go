package mcp

import (
	"context"
	"errors"
	"sync"

	"github.com/holon-actors/holon-actors/tools"
)

// Manager holds one Server per configured MCP server, shared by the
// agents that use it, and answers for an agent: its servers, its MCP
// tools, one tool by name. Close shuts every server down.
type Manager struct {
	cfg     Config
	servers map[string]*Server
	names   []string
}

// NewManager builds the supervisors of cfg's servers; none starts until
// an agent that uses it asks for its tools.
func NewManager(cfg Config, opts Options) *Manager {
	m := &Manager{cfg: cfg, servers: map[string]*Server{}, names: cfg.Names()}
	for _, n := range m.names {
		m.servers[n] = NewServer(n, cfg.Servers[n], opts)
	}
	return m
}

// Config is the manager's configuration.
func (m *Manager) Config() Config { return m.cfg }

// Server returns the supervisor of server name.
func (m *Manager) Server(name string) (*Server, bool) {
	s, ok := m.servers[name]
	return s, ok
}

// ServersOf lists the servers agent id uses, sorted.
func (m *Manager) ServersOf(id string) []string {
	sel := m.cfg.SelectionOf(id)
	var out []string
	for _, n := range m.names {
		if sel.Uses(n) {
			out = append(out, n)
		}
	}
	return out
}

// Tools returns the MCP tools of agent id's servers, starting the idle
// ones (concurrently; each within its connect timeout). A server that
// cannot start contributes none; its error is in its Status.
func (m *Manager) Tools(ctx context.Context, id string) []*Tool {
	names := m.ServersOf(id)
	lists := make([][]*Tool, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Go(func() {
			s := m.servers[n]
			list, err := s.Tools(ctx)
			if err != nil {
				return
			}
			for _, t := range list {
				if len(ToolName(n, t.Name)) <= maxToolName {
					lists[i] = append(lists[i], newTool(s, t))
				}
			}
		})
	}
	wg.Wait()
	var out []*Tool
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// Specs is Tools' catalog entries.
func Specs(ts []*Tool) []tools.Spec {
	out := make([]tools.Spec, len(ts))
	for i, t := range ts {
		out[i] = t.Spec()
	}
	return out
}

// Status reports every server.
func (m *Manager) Status() []Status {
	out := make([]Status, 0, len(m.names))
	for _, n := range m.names {
		out = append(out, m.servers[n].Status())
	}
	return out
}

// Close shuts every server down and waits for them.
func (m *Manager) Close() error {
	var errs []error
	for _, n := range m.names {
		if err := m.servers[n].Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
