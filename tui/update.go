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
		m.runtimeReading = false
		return m, m.connected(msg)
	case loadedMsg:
		return m, m.loadedPage(msg)
	case feedMsg:
		return m, m.fed(msg)
	case refreshedMsg:
		m.refreshed(msg)
		m.refreshing = false
		if m.refreshAgain {
			m.refreshAgain = false
			return m, m.refresh()
		}
		return m, nil
	case pickedMsg:
		return m, m.picked(msg)
	case tickMsg:
		return m, tea.Batch(m.refreshRuntime(), m.refreshOrStart(), m.tick())
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

// refreshOrStart refreshes the status line, or starts again when the
// first page could not be read (the runtime was down).
func (m *Model) refreshOrStart() tea.Cmd {
	if !m.loaded {
		return m.start()
	}
	return m.refresh()
}

// connected takes the runtime status and the agent list.
func (m *Model) connected(msg connectedMsg) tea.Cmd {
	if msg.err != nil {
		m.offline(msg.err)
		return nil
	}
	m.online, m.runtime, m.agents = true, msg.runtime, msg.agents
	if o := m.overlay; o != nil && o.kind == overlayAgents {
		had, cursor := len(o.items), o.cursor
		m.fillAgents(o)
		if had > 0 { // keep the line the operator moved to
			o.cursor = max(0, min(cursor, len(o.items)-1))
		}
	}
	return nil
}

// offline notes that the runtime did not answer.
func (m *Model) offline(err error) {
	m.online = false
	m.notice = describeError(err)
}

// picked selects the default agent when none was asked for.
func (m *Model) picked(msg pickedMsg) tea.Cmd {
	if msg.err != nil {
		m.offline(msg.err)
		return nil
	}
	if m.agent != "" {
		return nil
	}
	m.online, m.agent = true, msg.summary.ID
	s := msg.summary
	m.summary = &s
	return m.start()
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
	m.agent, m.summary, m.loaded, m.loading = id, nil, false, false
	m.events, m.lastSeq, m.activity, m.streamErr = nil, 0, "", nil
	m.dirty = true
	m.notice = "showing " + id
	return m.start()
}

func (m *Model) loadedPage(msg loadedMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	m.loading = false
	if msg.err != nil {
		m.notice = fmt.Sprintf("cannot read %s's events: %s", m.agent, describeError(msg.err))
		return nil
	}
	m.loaded, m.online = true, true
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
	if n := len(m.events); n > maxEvents+trimEvents {
		m.events = append(m.events[:0:0], m.events[n-maxEvents:]...)
		m.rowsUpTo = len(m.events) + 1 // the rows are wrapped again
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
	if msg.gen != m.gen {
		return
	}
	if msg.err != nil {
		m.offline(msg.err)
		return
	}
	if !m.online && strings.HasPrefix(m.notice, control.ErrNotRunning.Error()) {
		m.notice = "reconnected"
	}
	m.online = true
	if msg.summary.ID == m.agent {
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
