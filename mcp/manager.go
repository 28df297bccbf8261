package mcp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
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

	mu    sync.Mutex
	users map[string]map[string]bool // server → the agents that asked for its tools; guarded by mu

	testHook func(any) // see serverActor
}

// NewManager builds the supervisors of cfg's servers; none starts until
// an agent that uses it asks for its tools.
func NewManager(cfg Config, opts Options) *Manager {
	m := &Manager{cfg: cfg, servers: map[string]*Server{}, names: cfg.Names(), users: map[string]map[string]bool{}}
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

// ServersOf lists the servers agent id uses by the config, sorted.
func (m *Manager) ServersOf(id string) []string { return m.ServersIn(m.cfg.SelectionOf(id)) }

// ServersIn lists the configured servers sel uses, sorted.
func (m *Manager) ServersIn(sel Selection) []string {
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
	return m.ToolsIn(ctx, id, m.cfg.SelectionOf(id))
}

// ToolsIn is Tools for an agent whose servers are sel (its own
// selection, agents create --mcp, over the config's).
func (m *Manager) ToolsIn(ctx context.Context, id string, sel Selection) []*Tool {
	names := m.ServersIn(sel)
	m.mu.Lock()
	for _, n := range names {
		if m.users[n] == nil {
			m.users[n] = map[string]bool{}
		}
		m.users[n][id] = true
	}
	m.mu.Unlock()
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

// Users lists the agents that have used server, sorted.
func (m *Manager) Users(server string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for id := range m.users[server] {
		out = append(out, id)
	}
	sort.Strings(out)
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

// Tool returns agent id's tool called name without waiting for any
// server: from its server's last listing, or, when the server has not
// listed its tools yet (a call resumed after a restart), a tool that
// sends the call by name. False when name is no MCP tool of a server the
// agent uses, or the server's allow and deny lists hide it.
func (m *Manager) Tool(id, name string) (*Tool, bool) {
	return m.ToolIn(m.cfg.SelectionOf(id), name)
}

// ToolIn is Tool for an agent whose servers are sel.
func (m *Manager) ToolIn(sel Selection, name string) (*Tool, bool) {
	server, tool, ok := SplitToolName(name)
	if !ok || !sel.Uses(server) {
		return nil, false
	}
	s, ok := m.servers[server]
	if !ok || !s.cfg.Offers(tool) {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tools {
		if t.Name == tool {
			return newTool(s, t), true
		}
	}
	return &Tool{srv: s, tool: tool, Destructive: true, spec: tools.Spec{Name: name}}, true
}

// ErrUnknownServer is returned for a server name the config lacks.
var ErrUnknownServer = errors.New("no such mcp server")

// CheckSelection refuses a selection naming a server the config lacks
// (wrapping ErrUnknownServer); the error lists the configured ones.
func (m *Manager) CheckSelection(sel Selection) error {
	for _, n := range sel.Servers {
		if _, ok := m.servers[n]; !ok {
			return fmt.Errorf("%w: %q (configured: %s; give all, none or a comma-separated list of them)",
				ErrUnknownServer, n, configured(m.names))
		}
	}
	return nil
}

func configured(names []string) string {
	if len(names) == 0 {
		return "none, add servers to config.json mcp_servers"
	}
	return strings.Join(names, ", ")
}

// ServerTools returns server name's offered tools, starting it when idle.
func (m *Manager) ServerTools(ctx context.Context, name string) ([]*Tool, error) {
	s, ok := m.servers[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q (list them with holon-actors mcp list)", ErrUnknownServer, name)
	}
	list, err := s.Tools(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*Tool, 0, len(list))
	for _, t := range list {
		out = append(out, newTool(s, t))
	}
	return out, nil
}
