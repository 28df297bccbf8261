package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// overlayKind names a temporary overlay over the conversation.
type overlayKind int

const (
	overlayHelp overlayKind = iota
	overlayAgents
	overlayQuestions
	overlayChoices
	overlayActions
	overlayTranscript
	overlayTasks
	overlayChildren
	overlayWork
	overlayTimers
	overlayEvents
	overlayEvent
)

var overlayTitles = map[overlayKind]string{
	overlayHelp: "Help", overlayAgents: "Agents", overlayQuestions: "Open questions", overlayChoices: "Answer",
	overlayActions: "Actions", overlayTranscript: "Transcript", overlayTasks: "Tasks", overlayChildren: "Children",
	overlayWork: "Work items", overlayTimers: "Timers", overlayEvents: "Events (raw)", overlayEvent: "Event",
}

// overlay is a list over the conversation: Up/Down move, Enter acts on
// the line, Esc closes it.
type overlay struct {
	kind    overlayKind
	title   string
	items   []item
	cursor  int
	loading bool
	err     string
}

// item is one line of an overlay and what Enter does on it.
type item struct {
	text string
	run  func(m *Model) tea.Cmd // nil: Enter does nothing
}

// overlayMsg delivers the lines of an overlay read from the runtime.
type overlayMsg struct {
	kind  overlayKind
	gen   int
	items []item
	err   error
}

func (o *overlay) move(n int) {
	o.cursor = max(0, min(len(o.items)-1, o.cursor+n))
}

// openOverlay shows kind: from what the console holds, or read now.
func (m *Model) openOverlay(kind overlayKind) tea.Cmd {
	o := &overlay{kind: kind, title: overlayTitles[kind]}
	m.overlay = o
	switch kind {
	case overlayHelp:
		for _, h := range commandHelp {
			o.items = append(o.items, item{text: fmt.Sprintf("%-21s %s", h[0], h[1])})
		}
	case overlayAgents:
		m.fillAgents(o)
		return m.refreshRuntime() // the list fills in or updates when it answers
	case overlayActions:
		o.items = m.actionItems()
	case overlayEvents:
		o.items = m.eventItems()
		o.cursor = max(0, len(o.items)-1)
	default:
		o.title += " of " + m.agent
		o.loading = true
		return m.fetchOverlay(kind)
	}
	return nil
}

// fillAgents lists the agents in o, the cursor on the selected one.
func (m *Model) fillAgents(o *overlay) {
	o.items = m.agentItems()
	for i, a := range m.agents {
		if a.info.ID == m.agent {
			o.cursor = i
		}
	}
}

func (m *Model) agentItems() []item {
	items := make([]item, len(m.agents))
	for i, a := range m.agents {
		id := a.info.ID
		text := fmt.Sprintf("%-24s %-14s queued %d", id, a.info.Status, a.info.Queued)
		if a.child {
			text = fmt.Sprintf("  └ %-20s child of %s", id, a.info.ParentAgentID)
		}
		if len(a.info.OpenSuspensions) > 0 {
			text += fmt.Sprintf("  %d question(s)", len(a.info.OpenSuspensions))
		}
		items[i] = item{text: text, run: func(m *Model) tea.Cmd { m.overlay = nil; return m.selectAgent(id) }}
	}
	return items
}

func (m *Model) actionItems() []item {
	var items []item
	for _, op := range []actors.ControlOp{actors.OpPause, actors.OpResume, actors.OpStop, actors.OpWake, actors.OpInterrupt} {
		items = append(items, item{text: fmt.Sprintf("%-10s %s", op, m.agent),
			run: func(m *Model) tea.Cmd { m.overlay = nil; return m.lifecycle(op) }})
	}
	items = append(items, item{text: "model      set the model: type /model NAME",
		run: func(m *Model) tea.Cmd { m.overlay = nil; m.composer.SetValue("/model "); return nil }})
	for _, d := range []Display{DisplayInfo, DisplayVerbose, DisplayDebug} {
		items = append(items, item{text: fmt.Sprintf("display    %s (%d)", d, int(d)),
			run: func(m *Model) tea.Cmd { m.overlay = nil; m.display, m.dirty = d, true; return nil }})
	}
	return items
}

func (m *Model) eventItems() []item {
	items := make([]item, len(m.events))
	for i, ev := range m.events {
		items[i] = item{text: fmt.Sprintf("%6d %-26s %s", ev.Provenance.EventSeq, ev.Provenance.Kind, ev.Presentation.Summary),
			run: func(m *Model) tea.Cmd { m.overlay = eventOverlay(ev); return nil }}
	}
	return items
}

// eventOverlay shows one raw event: provenance, presentation and payload.
func eventOverlay(ev control.StreamEvent) *overlay {
	o := &overlay{kind: overlayEvent, title: fmt.Sprintf("Event %d %s", ev.Provenance.EventSeq, ev.Provenance.Kind)}
	b, _ := json.MarshalIndent(ev.Provenance, "", "  ")
	var payload bytes.Buffer
	if json.Indent(&payload, ev.Payload, "", "  ") != nil {
		payload.Write(ev.Payload)
	}
	text := "provenance " + string(b) + "\npresentation " + ev.Presentation.Title + ": " + ev.Presentation.Summary +
		"\npayload " + payload.String()
	for _, l := range strings.Split(text, "\n") {
		o.items = append(o.items, item{text: l})
	}
	return o
}

// fetchOverlay reads an overlay's lines from the runtime.
func (m *Model) fetchOverlay(kind overlayKind) tea.Cmd {
	c, id, gen := m.c, m.agent, m.gen
	return m.call(func(ctx context.Context) tea.Msg {
		items, err := fetchItems(ctx, c, id, kind)
		return overlayMsg{kind: kind, gen: gen, items: items, err: err}
	})
}

func fetchItems(ctx context.Context, c Control, id string, kind overlayKind) ([]item, error) {
	switch kind {
	case overlayQuestions:
		qs, err := c.OpenSuspensions(ctx)
		return questionItems(qs), err
	case overlayTranscript:
		tr, err := c.Transcript(ctx, id)
		items := make([]item, len(tr))
		for i, it := range tr {
			items[i] = item{text: fmt.Sprintf("%-12s %s", it.Kind, oneLine(it.Text, 200))}
		}
		return items, err
	case overlayTasks:
		st, err := c.State(ctx, id)
		return taskItems(st), err
	case overlayChildren:
		cs, err := c.Children(ctx, id, true)
		items := make([]item, len(cs))
		for i, ch := range cs {
			items[i] = item{text: fmt.Sprintf("%-22s %-10s %s", ch.ChildAgentID, ch.TaskStatus, oneLine(ch.Summary, 80))}
		}
		return items, err
	case overlayTimers:
		ts, err := c.Timers(ctx, id)
		return timerItems(ts, time.Now()), err
	case overlayWork:
		ws, err := c.WorkItems(ctx, id)
		items := make([]item, len(ws))
		for i, w := range ws {
			cur := " "
			if w.Current {
				cur = "*"
			}
			items[i] = item{text: fmt.Sprintf("%s %-10s %-10s %s", cur, w.State, w.SchedulingState, oneLine(w.Objective, 80))}
		}
		return items, err
	}
	return nil, nil
}

// questionItems lists open questions; Enter on one shows its choices.
func questionItems(qs []messages.SuspensionRecord) []item {
	items := make([]item, len(qs))
	for i, q := range qs {
		items[i] = item{text: fmt.Sprintf("%-12s %s  (%s)", q.AgentID, oneLine(q.Question, 90), q.ID),
			run: func(m *Model) tea.Cmd { return m.openChoices(q) }}
	}
	return items
}

// openChoices shows question q's choices; without choices, Enter
// answers with the composer's text.
func (m *Model) openChoices(q messages.SuspensionRecord) tea.Cmd {
	o := &overlay{kind: overlayChoices, title: oneLine(q.Question, 70)}
	answer := func(value string) func(m *Model) tea.Cmd {
		return func(m *Model) tea.Cmd {
			m.overlay = nil
			c := m.c
			return m.act(func(ctx context.Context) (string, error) { return respond(ctx, c, q, value) })
		}
	}
	for _, ch := range q.EffectiveChoices() {
		o.items = append(o.items, item{text: fmt.Sprintf("%-12s %s", ch.Value, ch.Label), run: answer(ch.Value)})
	}
	if len(o.items) == 0 {
		text := strings.TrimSpace(m.composer.Value())
		if text == "" {
			m.notice = "type the answer in the composer, then Enter on the question"
			return nil
		}
		m.composer.Reset()
		return answer(text)(m)
	}
	m.overlay = o
	return nil
}

// taskItems shows the agent's queue, turn in flight, timers and tasks.
func taskItems(st control.AgentStateSnapshot) []item {
	var items []item
	add := func(format string, a ...any) { items = append(items, item{text: fmt.Sprintf(format, a...)}) }
	add("status %s, %d running task(s), %d queued", st.Agent.Status, st.Agent.RunningTasks, len(st.Queue))
	if t := st.Turn; t != nil {
		b, _ := json.Marshal(t)
		add("turn in flight: %s", oneLine(string(b), 150))
	}
	for _, q := range st.Queue {
		add("queued %-10s %-9s %s", q.Priority, q.Origin, oneLine(q.Summary, 80))
	}
	for id := range st.Timers {
		add("timer %s", id)
	}
	for _, ch := range st.Agent.ActiveChildren {
		add("child %s", ch)
	}
	return items
}

func (m *Model) overlayLoaded(msg overlayMsg) {
	o := m.overlay
	if o == nil || o.kind != msg.kind || msg.gen != m.gen {
		return
	}
	o.loading = false
	if msg.err != nil {
		o.err = describeError(msg.err)
		return
	}
	o.items = msg.items
	if o.kind == overlayTranscript {
		o.cursor = max(0, len(o.items)-1)
	}
}

// overlayKey handles the keys an overlay takes; others go on to the
// composer.
func (m *Model) overlayKey(k tea.KeyMsg) (tea.Cmd, bool) {
	o := m.overlay
	switch k.String() {
	case "up":
		o.move(-1)
	case "down":
		o.move(1)
	case "home":
		o.cursor = 0
	case "end":
		o.move(len(o.items))
	case "enter":
		if o.cursor < len(o.items) && o.items[o.cursor].run != nil {
			return o.items[o.cursor].run(m), true
		}
		if o.kind == overlayHelp || len(o.items) == 0 {
			m.overlay = nil
			if strings.TrimSpace(m.composer.Value()) != "" {
				return nil, false // Enter closes help and sends what was typed
			}
		}
	default:
		return nil, false
	}
	return nil, true
}
