package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// Update applies one message to the console.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.KeyMsg:
		return m, m.key(msg)
	case tea.MouseMsg:
		return m, nil
	case connectedMsg:
		return m, m.connected(msg)
	case loadedMsg:
		return m, m.loadedPage(msg)
	case feedMsg:
		return m, m.fed(msg)
	case refreshedMsg:
		m.refreshed(msg)
		return m, nil
	case tickMsg:
		return m, tea.Batch(m.refreshOrConnect(), m.tick())
	case doneMsg:
		m.done(msg)
		return m, m.refresh()
	case promptedMsg:
		return m, m.prompted(msg)
	case overlayMsg:
		m.overlayLoaded(msg)
		return m, nil
	}
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(msg)
	return m, cmd
}

// refreshOrConnect refreshes the status line, or connects again when no
// agent is selected yet (the runtime was down at start).
func (m *Model) refreshOrConnect() tea.Cmd {
	if m.agent == "" || !m.loaded {
		return m.connect()
	}
	return m.refresh()
}

func (m *Model) connected(msg connectedMsg) tea.Cmd {
	if msg.err != nil {
		m.online = false
		m.notice = describeError(msg.err)
		return nil
	}
	m.online, m.runtime, m.agents = true, msg.runtime, msg.agents
	if m.loaded {
		return nil
	}
	if m.agent == "" {
		m.agent = msg.runtime.DefaultAgentID
	}
	return tea.Batch(m.load(), m.refresh())
}

// selectAgent switches the console to agent id: the old stream ends, the
// new agent's newest page is read.
func (m *Model) selectAgent(id string) tea.Cmd {
	if id == m.agent && m.loaded {
		return nil
	}
	m.feed.stop()
	m.feed = nil
	m.gen++
	m.agent, m.summary, m.loaded = id, nil, false
	m.events, m.lastSeq, m.activity, m.streamErr = nil, 0, "", nil
	m.dirty = true
	m.notice = "showing " + id
	return tea.Batch(m.load(), m.refresh())
}

func (m *Model) loadedPage(msg loadedMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	if msg.err != nil {
		m.notice = fmt.Sprintf("cannot read %s's events: %s", m.agent, describeError(msg.err))
		return nil
	}
	m.loaded = true
	m.add(msg.page.Events)
	m.lastSeq = max(m.lastSeq, msg.page.NextAfter)
	m.feed = startFeed(m.ctx, m.c, m.gen, m.agent, m.lastSeq, m.opts.Retry)
	return m.feed.wait()
}

func (m *Model) fed(msg feedMsg) tea.Cmd {
	if msg.gen != m.gen || m.feed == nil {
		return nil
	}
	m.add(msg.events)
	refresh := m.streamErr != nil && len(msg.events) > 0
	if len(msg.events) > 0 {
		m.streamErr = nil
		m.online = true
	}
	if msg.broken != nil {
		m.streamErr = msg.broken
	}
	for _, ev := range msg.events {
		if ev.Presentation.Category == control.CategoryStateSync || ev.Presentation.Category == control.CategoryBrief {
			refresh = true
		}
	}
	cmds := []tea.Cmd{m.feed.wait()}
	if refresh {
		cmds = append(cmds, m.refresh())
	}
	return tea.Batch(cmds...)
}

// add appends events past the last seq shown (a resumed stream repeats
// none, but a page and a stream may overlap) and updates the activity.
func (m *Model) add(evs []control.StreamEvent) {
	for _, ev := range evs {
		if ev.Provenance.EventSeq <= m.lastSeq && m.lastSeq > 0 {
			continue
		}
		m.lastSeq = ev.Provenance.EventSeq
		m.events = append(m.events, ev)
		m.track(ev)
		m.dirty = true
	}
	if n := len(m.events); n > maxEvents {
		m.events = append(m.events[:0:0], m.events[n-maxEvents:]...)
	}
}

// track keeps the working summary scoped to the current turn: a new
// operator message clears it, progress and tools set it, the end of the
// turn clears it.
func (m *Model) track(ev control.StreamEvent) {
	switch ev.Provenance.Kind {
	case messages.EventMessageAdmitted, messages.EventTurnTerminal, messages.EventBriefRecorded:
		m.activity = ""
		return
	}
	if a, ok := activityOf(ev); ok {
		m.activity = a
	}
}

func (m *Model) refreshed(msg refreshedMsg) {
	if msg.err != nil {
		m.online = false
		if msg.gen == m.gen {
			m.notice = describeError(msg.err)
		}
		return
	}
	if !m.online && strings.HasPrefix(m.notice, control.ErrNotRunning.Error()) {
		m.notice = "reconnected"
	}
	m.online, m.runtime = true, msg.runtime
	if msg.agents != nil {
		m.agents = msg.agents
	}
	if msg.gen == m.gen && msg.summary.ID == m.agent {
		s := msg.summary
		m.summary = &s
	}
}

func (m *Model) done(msg doneMsg) {
	if msg.err != nil {
		m.notice = describeError(msg.err)
		return
	}
	m.notice = msg.notice
}

// key handles a keystroke: global keys first, then the overlay's, then
// the composer's.
func (m *Model) key(k tea.KeyMsg) tea.Cmd {
	switch k.String() {
	case "ctrl+c":
		m.Close()
		return tea.Quit
	case "esc":
		if m.overlay != nil {
			m.overlay = nil
			return nil
		}
		m.notice = ""
		return nil
	case "ctrl+p":
		m.priority = nextPriority(m.priority)
		return nil
	case "ctrl+x":
		return m.interrupt(strings.TrimSpace(m.composer.Value()))
	case "ctrl+a":
		return m.openOverlay(overlayAgents)
	case "ctrl+q":
		return m.openOverlay(overlayQuestions)
	case "ctrl+o":
		return m.openOverlay(overlayActions)
	case "ctrl+t":
		return m.openOverlay(overlayTranscript)
	case "ctrl+e":
		return m.openOverlay(overlayEvents)
	case "f1":
		return m.openOverlay(overlayHelp)
	case "pgup":
		m.scroll(-m.conv.Height / 2)
		return nil
	case "pgdown":
		m.scroll(m.conv.Height / 2)
		return nil
	}
	if m.overlay != nil {
		if cmd, ok := m.overlayKey(k); ok {
			return cmd
		}
	}
	if k.Type == tea.KeyEnter {
		return m.submit()
	}
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(k)
	return cmd
}

// scroll moves the conversation, or the open overlay, by n lines.
func (m *Model) scroll(n int) {
	if m.overlay != nil {
		m.overlay.move(n)
		return
	}
	m.conv.SetYOffset(m.conv.YOffset + n)
}

// nextPriority cycles the queue band of the next prompt.
func nextPriority(p messages.Priority) messages.Priority {
	switch p {
	case messages.PriorityNormal:
		return messages.PriorityNext
	case messages.PriorityNext:
		return messages.PriorityInterject
	case messages.PriorityInterject:
		return messages.PriorityBackground
	}
	return messages.PriorityNormal
}
