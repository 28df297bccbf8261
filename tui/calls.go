package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
)

// connectedMsg answers refreshRuntime: the runtime and its agents.
type connectedMsg struct {
	runtime control.RuntimeStatus
	agents  []agentEntry
	err     error
}

// loadedMsg answers load: the newest page of an agent's events.
type loadedMsg struct {
	gen  int
	page control.EventsPage
	err  error
}

// refreshedMsg answers refresh: the selected agent's summary.
type refreshedMsg struct {
	gen     int
	summary control.AgentSummary
	err     error
}

// tickMsg asks for a refresh.
type tickMsg struct{}

// doneMsg is the runtime's answer to an operator action, as a notice.
type doneMsg struct {
	notice string
	err    error
}

// call runs f with the console's call timeout.
func (m *Model) call(f func(ctx context.Context) tea.Msg) tea.Cmd {
	ctx := m.ctx
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, callTimeout)
		defer cancel()
		return f(ctx)
	}
}

// listAgents lists the public agents, each followed by its active
// children.
func listAgents(ctx context.Context, c Control) ([]agentEntry, error) {
	infos, err := c.Agents(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]agentEntry, 0, len(infos))
	for _, in := range infos {
		out = append(out, agentEntry{info: in})
		for _, child := range in.ActiveChildren {
			out = append(out, agentEntry{info: agentstate.AgentInfo{ID: child, ParentAgentID: in.ID}, child: true})
		}
	}
	return out, nil
}

func (m *Model) load() tea.Cmd {
	c, id, gen, n := m.c, m.agent, m.gen, m.opts.Page
	return m.call(func(ctx context.Context) tea.Msg {
		page, err := c.LastEvents(ctx, id, n)
		return loadedMsg{gen: gen, page: page, err: err}
	})
}

// refresh reads the selected agent's summary for the status line: one
// agent's question, fast however busy the others are. One read is in
// flight at a time; asked again meanwhile, it reads once more after it,
// so a busy agent's events cost one read per answer, not one per batch.
func (m *Model) refresh() tea.Cmd {
	c, id, gen := m.c, m.agent, m.gen
	if id == "" {
		return nil
	}
	if m.refreshing {
		m.refreshAgain = true
		return nil
	}
	m.refreshing = true
	return m.call(func(ctx context.Context) tea.Msg {
		s, err := c.Status(ctx, id)
		return refreshedMsg{gen: gen, summary: s, err: err}
	})
}

// refreshRuntime reads the runtime status and the agent list, which ask
// every agent and so may take longer: one read at a time (the next tick,
// or the answer in flight, brings the news).
func (m *Model) refreshRuntime() tea.Cmd {
	if m.runtimeReading {
		return nil
	}
	m.runtimeReading = true
	c := m.c
	return m.call(func(ctx context.Context) tea.Msg {
		st, err := c.RuntimeStatus(ctx)
		if err != nil {
			return connectedMsg{err: err}
		}
		agents, err := listAgents(ctx, c)
		return connectedMsg{runtime: st, agents: agents, err: err}
	})
}

// pick finds the agent to show when none was asked for: the default
// agent, by its summary.
func (m *Model) pick() tea.Cmd {
	c := m.c
	return m.call(func(ctx context.Context) tea.Msg {
		s, err := c.DefaultStatus(ctx)
		return pickedMsg{summary: s, err: err}
	})
}

// pickedMsg answers pick.
type pickedMsg struct {
	summary control.AgentSummary
	err     error
}

func (m *Model) tick() tea.Cmd {
	return tea.Tick(m.opts.StatusEvery, func(time.Time) tea.Msg { return tickMsg{} })
}

// act runs an operator action and reports its answer as a notice.
func (m *Model) act(f func(ctx context.Context) (string, error)) tea.Cmd {
	return m.call(func(ctx context.Context) tea.Msg {
		notice, err := f(ctx)
		return doneMsg{notice: notice, err: err}
	})
}

// describeError is one line saying what failed and what to do.
func describeError(err error) string {
	var ae *control.Error
	switch {
	case errors.As(err, &ae) && ae.Hint != "":
		return fmt.Sprintf("%s (%s)", ae.Message, ae.Hint)
	case errors.As(err, &ae):
		return ae.Message
	case errors.Is(err, control.ErrNotRunning):
		return err.Error() + ": start it with holon-actors run or holon-actors daemon start; the console reconnects"
	}
	return err.Error()
}
