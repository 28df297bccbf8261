package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/holon-actors/holon-actors/control"
)

// Fixed lines around the conversation: the header, the notice line, the
// composer and the status line.
const (
	composerLines = 2
	chromeLines   = 3 + composerLines
)

var (
	headerStyle = lipgloss.NewStyle().Bold(true)
	faintStyle  = lipgloss.NewStyle().Faint(true)
	cursorStyle = lipgloss.NewStyle().Reverse(true)
)

// layout sizes the conversation and the composer to the terminal.
func (m *Model) layout() {
	m.composer.SetWidth(max(10, m.width))
	m.conv.Width = max(10, m.width)
	m.conv.Height = max(1, m.height-chromeLines)
	m.dirty = true
}

// View paints the console.
func (m *Model) View() string {
	if m.dirty {
		m.rebuild()
	}
	var b strings.Builder
	b.WriteString(headerStyle.Render(m.fit(m.header())))
	b.WriteByte('\n')
	if m.overlay != nil {
		b.WriteString(m.overlayView())
	} else {
		b.WriteString(m.conv.View())
	}
	b.WriteByte('\n')
	b.WriteString(faintStyle.Render(m.fit(m.noticeLine())))
	b.WriteByte('\n')
	b.WriteString(m.composer.View())
	b.WriteByte('\n')
	b.WriteString(m.fit(m.statusLine()))
	if m.loaded && m.opts.Painted != nil {
		m.opts.Painted()
	}
	return b.String()
}

// fit cuts s to the terminal's width.
func (m *Model) fit(s string) string { return ansi.Truncate(s, m.width, "…") }

// rebuild lays out the conversation's rows for the display mode and the
// width, keeping the view at the bottom if it was there. Rows already
// wrapped are kept (m.rows) until the width, the mode or the events held
// change under them; new events only wrap their own rows.
func (m *Model) rebuild() {
	m.dirty = false
	bottom := m.conv.AtBottom() || m.conv.TotalLineCount() <= m.conv.Height
	if m.rowsFor != (rowsKey{m.agent, m.display, m.conv.Width}) || m.rowsUpTo > len(m.events) {
		m.rows, m.rowsUpTo, m.rowsFor = m.rows[:0], 0, rowsKey{m.agent, m.display, m.conv.Width}
	}
	wrap := lipgloss.NewStyle().Width(m.conv.Width)
	for _, ev := range m.events[m.rowsUpTo:] {
		if r, ok := rowFor(m.agent, ev, m.display); ok {
			m.rows = append(m.rows, wrap.Render(r.text))
		}
	}
	m.rowsUpTo = len(m.events)
	content := strings.Join(m.rows, "\n")
	switch {
	case !m.loaded && m.agent != "":
		content = "loading " + m.agent + "…"
	case !m.loaded:
		content = "connecting…"
	case content == "":
		content = fmt.Sprintf("nothing to show for %s in display %s yet: type a prompt below", m.agent, m.display)
	}
	m.conv.SetContent(content)
	if bottom {
		m.conv.GotoBottom()
	}
}

// rowsKey is what the wrapped rows depend on besides the events.
type rowsKey struct {
	agent   string
	display Display
	width   int
}

func (m *Model) header() string {
	agent := m.agent
	if agent == "" {
		agent = "(connecting)"
	}
	return fmt.Sprintf("holon-actors · %s · display %s · priority %s · F1 help", agent, m.display, m.priority)
}

// noticeLine says what the console last did, or what the agent is doing.
func (m *Model) noticeLine() string {
	switch {
	case m.streamErr != nil:
		return fmt.Sprintf("event stream broke (%s): resuming after event %d", describeError(m.streamErr), m.lastSeq)
	case m.notice != "":
		return m.notice
	case m.activity != "":
		return "working: " + m.activity
	}
	return ""
}

// statusLine shows the workspace, model, budget and state of the agent.
func (m *Model) statusLine() string {
	conn := "online"
	if !m.online {
		conn = "offline"
	}
	s := m.summary
	if s == nil {
		return fmt.Sprintf("%s │ ws %s", conn, m.workspace())
	}
	state := string(s.Status)
	if s.TurnInFlight {
		state += " (turn)"
	}
	if s.Queued > 0 {
		state += fmt.Sprintf(" +%d queued", s.Queued)
	}
	if n := len(s.OpenSuspensions); n > 0 {
		state += fmt.Sprintf(" %d question(s): Ctrl+Q", n)
	}
	state += nextTimer(s, time.Now())
	return fmt.Sprintf("%s │ model %s │ budget %s │ %s │ ws %s", state, orDefault(s.Model), budget(s), conn, m.workspace())
}

func (m *Model) workspace() string {
	if m.summary != nil && m.summary.ExecutionRoot != "" {
		return m.summary.ExecutionRoot
	}
	if m.runtime.HomeDir != "" {
		return m.runtime.HomeDir
	}
	return "-"
}

func budget(s *control.AgentSummary) string {
	b := s.TokenBudget
	if b.LimitTokens == 0 {
		return fmt.Sprintf("%s tok", count(b.SpentTokens))
	}
	out := fmt.Sprintf("%s/%s tok", count(b.SpentTokens), count(b.LimitTokens))
	if b.Exhausted {
		out += " EXHAUSTED"
	}
	return out
}

// count writes n briefly: 950, 12.3k, 4.5M.
func count(n uint64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// overlayView paints the open overlay in the conversation's place.
func (m *Model) overlayView() string {
	o, h := m.overlay, m.conv.Height
	lines := []string{headerStyle.Render(m.fit("── " + o.title + " ── (Up/Down, Enter, Esc closes)"))}
	switch {
	case o.loading:
		lines = append(lines, "loading…")
	case o.err != "":
		lines = append(lines, m.fit("error: "+o.err))
	case len(o.items) == 0:
		lines = append(lines, "(none)")
	}
	rows := h - 1
	top := max(0, min(o.cursor-rows/2, len(o.items)-rows))
	for i := top; i < len(o.items) && i < top+rows; i++ {
		line := m.fit("  " + o.items[i].text)
		if i == o.cursor && o.items[i].run != nil {
			line = cursorStyle.Render(m.fit("› " + o.items[i].text))
		}
		lines = append(lines, line)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines[:h], "\n")
}
