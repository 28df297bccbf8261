package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// promptedMsg answers a prompt the composer sent.
type promptedMsg struct {
	text      string
	res       control.PromptResponse
	err       error
	interrupt bool
}

// submit sends the composer's text: a /command, or a prompt to the
// selected agent at the chosen priority.
func (m *Model) submit() tea.Cmd {
	text := strings.TrimSpace(m.composer.Value())
	switch {
	case text == "":
		return nil
	case strings.HasPrefix(text, "/"):
		return m.command(text)
	case m.agent == "" || !m.loaded:
		m.notice = "no agent is selected yet: the console is still connecting"
		return nil
	}
	m.composer.Reset()
	return m.sendPrompt(text, m.priority, false)
}

// sendPrompt admits text; with interrupt it then ends the turn in flight,
// sparing the prompt's own.
func (m *Model) sendPrompt(text string, p messages.Priority, interrupt bool) tea.Cmd {
	c, id := m.c, m.agent
	return m.call(func(ctx context.Context) tea.Msg {
		res, err := c.Prompt(ctx, id, control.PromptRequest{Text: text, Priority: string(p)})
		if err == nil && interrupt {
			_, ierr := c.Interrupt(ctx, id, res.MessageID, "the operator sent a prompt with interrupt from the console")
			if ierr != nil {
				err = fmt.Errorf("prompt %s admitted, but the turn in flight was not interrupted: %w", res.MessageID, ierr)
			}
		}
		return promptedMsg{text: text, res: res, err: err, interrupt: interrupt}
	})
}

func (m *Model) prompted(msg promptedMsg) tea.Cmd {
	switch {
	case msg.err != nil && msg.res.MessageID == "":
		m.notice = "not sent: " + describeError(msg.err)
		if strings.TrimSpace(m.composer.Value()) == "" {
			m.composer.SetValue(msg.text) // nothing was admitted: the text is not lost
		}
	case msg.err != nil:
		m.notice = describeError(msg.err)
	case msg.interrupt:
		m.notice = fmt.Sprintf("sent %s and interrupted the turn in flight", msg.res.MessageID)
	default:
		m.notice = fmt.Sprintf("sent %s (%s)", msg.res.MessageID, m.priority)
	}
	return nil
}

// interrupt sends text with interrupt (it runs next), or with an empty
// composer ends the turn in flight.
func (m *Model) interrupt(text string) tea.Cmd {
	if m.agent == "" {
		return nil
	}
	if text != "" && !strings.HasPrefix(text, "/") {
		m.composer.Reset()
		return m.sendPrompt(text, messages.PriorityNext, true)
	}
	return m.lifecycle(actors.OpInterrupt)
}

// lifecycle sends a lifecycle operation to the selected agent.
func (m *Model) lifecycle(op actors.ControlOp) tea.Cmd {
	c, id := m.c, m.agent
	return m.act(func(ctx context.Context) (string, error) {
		var (
			res control.LifecycleResponse
			err error
		)
		if op == actors.OpInterrupt {
			res, err = c.Interrupt(ctx, id, "", "interrupted from the console")
		} else {
			res, err = c.Lifecycle(ctx, id, op, string(op)+" from the console")
		}
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %s: now %s", op, id, res.Status), nil
	})
}

// command runs a /command. A bad one changes nothing and says what is
// valid; its text stays in the composer to be fixed.
func (m *Model) command(text string) tea.Cmd {
	name, arg, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	arg = strings.TrimSpace(arg)
	cmd, err := m.run(name, arg)
	if err != nil {
		m.notice = err.Error()
		return nil
	}
	m.composer.Reset()
	return cmd
}

// commandHelp lists the commands, shown by /help.
var commandHelp = [][2]string{
	{"Enter", "send the prompt to the agent (Alt+Enter: new line)"},
	{"Ctrl+P, /priority P", "band: normal, next, interject, background"},
	{"Ctrl+X", "send it next, interrupting the turn in flight"},
	{"Ctrl+A, /agents", "pick the agent (children under their parent)"},
	{"/agent ID", "switch to agent ID"},
	{"/display MODE", "info, verbose or debug (3, 4, 5)"},
	{"Ctrl+Q, /questions", "open questions: Enter picks one, then its answer"},
	{"/answer TEXT", "answer the agent's oldest open question"},
	{"Ctrl+T, /transcript", "the conversation as the model sees it"},
	{"/tasks", "queue, turn in flight, timers, running tasks"},
	{"/children, /work", "the agent's children; its work items"},
	{"/timers", "the agent's timers: schedule, next fire, fires"},
	{"Ctrl+E, /events", "raw events (Enter shows one's payload)"},
	{"Ctrl+O, /actions", "pause, resume, stop, wake, interrupt, model"},
	{"/pause /resume /stop", "the agent's lifecycle (also /wake /interrupt)"},
	{"/model NAME", "set the agent's model (/model - clears it)"},
	{"PgUp/PgDn, Esc", "scroll; Esc closes an overlay"},
	{"Ctrl+C, /quit", "leave the console (the runtime goes on)"},
}

func (m *Model) run(name, arg string) (tea.Cmd, error) {
	if m.agent == "" && name != "help" && name != "quit" {
		return nil, fmt.Errorf("no agent is selected yet: the console is still connecting")
	}
	switch name {
	case "help":
		return m.openOverlay(overlayHelp), nil
	case "quit", "exit":
		m.Close()
		return tea.Quit, nil
	case "agents":
		return m.openOverlay(overlayAgents), nil
	case "agent":
		return m.switchTo(arg)
	case "display":
		d, err := ParseDisplay(arg)
		if err != nil {
			return nil, err
		}
		m.display, m.dirty = d, true
		m.notice = "display " + d.String()
		return nil, nil
	case "priority":
		p := messages.Priority(arg)
		if !p.Valid() {
			return nil, fmt.Errorf("priority %q is not a band: use normal, next, interject or background", arg)
		}
		m.priority = p
		return nil, nil
	case "questions":
		return m.openOverlay(overlayQuestions), nil
	case "answer":
		return m.answerOldest(arg)
	case "transcript":
		return m.openOverlay(overlayTranscript), nil
	case "tasks":
		return m.openOverlay(overlayTasks), nil
	case "children":
		return m.openOverlay(overlayChildren), nil
	case "work", "work-items":
		return m.openOverlay(overlayWork), nil
	case "timers":
		return m.openOverlay(overlayTimers), nil
	case "events":
		return m.openOverlay(overlayEvents), nil
	case "actions":
		return m.openOverlay(overlayActions), nil
	case "pause", "resume", "stop", "wake", "interrupt":
		return m.lifecycle(actors.ControlOp(name)), nil
	case "model":
		return m.setModel(arg)
	}
	return nil, fmt.Errorf("unknown command /%s: /help lists the commands", name)
}

// switchTo selects agent id if the console knows it.
func (m *Model) switchTo(id string) (tea.Cmd, error) {
	if id == "" {
		return nil, fmt.Errorf("/agent needs an agent id: /agents lists them")
	}
	for _, a := range m.agents {
		if a.info.ID == id {
			return m.selectAgent(id), nil
		}
	}
	return nil, fmt.Errorf("no agent %q: /agents lists them", id)
}

func (m *Model) setModel(arg string) (tea.Cmd, error) {
	if arg == "" {
		return nil, fmt.Errorf("/model needs a model (provider/name), or - to clear the override")
	}
	model := arg
	if arg == "-" {
		model = ""
	}
	c, id := m.c, m.agent
	return m.act(func(ctx context.Context) (string, error) {
		in, err := c.SetModel(ctx, id, model, "set from the console")
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s model: %s", id, orDefault(in.Model)), nil
	}), nil
}

// answerOldest answers the selected agent's oldest open question.
func (m *Model) answerOldest(text string) (tea.Cmd, error) {
	if text == "" {
		return nil, fmt.Errorf("/answer needs the answer: a choice's value or text (/questions lists them)")
	}
	c, id := m.c, m.agent
	return m.act(func(ctx context.Context) (string, error) {
		open, err := c.Suspensions(ctx, id, true)
		if err != nil {
			return "", err
		}
		if len(open) == 0 {
			return "", fmt.Errorf("%s has no open question", id)
		}
		q := open[len(open)-1] // newest first: the last is the oldest
		return respond(ctx, c, q, text)
	}), nil
}

// respond answers question q with text, sent as a JSON string.
func respond(ctx context.Context, c Control, q messages.SuspensionRecord, text string) (string, error) {
	v, _ := json.Marshal(text)
	res, err := c.Respond(ctx, q.AgentID, q.ID, control.RespondRequest{Value: v})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("answered %s with %s: %s", q.ID, text, res.Resolution), nil
}

func orDefault(s string) string {
	if s == "" {
		return "default"
	}
	return s
}
