package tui

import (
	"context"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// Defaults of Options.
const (
	DefaultPage        = 500
	DefaultRetry       = 250 * time.Millisecond
	DefaultStatusEvery = 2 * time.Second
	// maxEvents bounds the events the console keeps for the selected
	// agent; older ones drop off the top of the conversation.
	maxEvents = 4000
	// trimEvents is how far past maxEvents the events grow before the
	// oldest are dropped (and the rows wrapped again), so that happens
	// once per trimEvents events, not on each.
	trimEvents = 1000
	// callTimeout bounds one control call of the console.
	callTimeout = 10 * time.Second
)

// Options configure a console.
type Options struct {
	// Agent is the agent selected first; "" is the runtime's default agent.
	Agent string
	// Display is the first display mode; 0 is info.
	Display Display
	// Page is how many of the newest events the first paint reads; 0 is
	// DefaultPage.
	Page int
	// Retry is the first pause before a broken event stream is resumed;
	// 0 is DefaultRetry.
	Retry time.Duration
	// StatusEvery is how often the status line and agent list are
	// refreshed; 0 is DefaultStatusEvery.
	StatusEvery time.Duration
	// Painted, when set, is called from View each time the conversation
	// of a loaded agent is painted (the benchmark's probe).
	Painted func()
}

func (o Options) withDefaults() Options {
	if o.Display == 0 {
		o.Display = DisplayInfo
	}
	if o.Page <= 0 {
		o.Page = DefaultPage
	}
	if o.Retry <= 0 {
		o.Retry = DefaultRetry
	}
	if o.StatusEvery <= 0 {
		o.StatusEvery = DefaultStatusEvery
	}
	return o
}

// Model is the console's Bubble Tea model. Its methods run on the
// program's goroutine; it owns the feed goroutine of the selected agent.
type Model struct {
	c    Control
	ctx  context.Context // the console's lifetime: ends calls and the feed
	stop context.CancelFunc
	opts Options

	width, height int

	runtime control.RuntimeStatus
	online  bool
	agents  []agentEntry
	agent   string                // the selected agent
	summary *control.AgentSummary // its status, nil until read
	gen     int                   // bumped on each agent switch: stale answers are dropped
	loaded  bool                  // the selected agent's newest page is painted
	loading bool                  // its newest page is being read
	// refreshing is set while its summary is read; refreshAgain when
	// another read was asked for meanwhile.
	refreshing, refreshAgain bool
	runtimeReading           bool // the runtime status and agent list are being read
	events                   []control.StreamEvent
	lastSeq                  uint64
	feed                     *feed
	streamErr                error // the stream broke; the feed is resuming

	display  Display
	priority messages.Priority
	activity string // the current turn's latest activity, "" when none
	notice   string // the answer to the operator's last action, or an error

	composer textarea.Model
	conv     viewport.Model
	dirty    bool     // the conversation must be rebuilt before the next paint
	rows     []string // wrapped rows of events[:rowsUpTo], for rowsFor
	rowsUpTo int
	rowsFor  rowsKey
	overlay  *overlay
}

// agentEntry is one line of the agent list: a public agent, or one of
// its children under it.
type agentEntry struct {
	info  agentstate.AgentInfo
	child bool
}

// New returns a console on c. Run it with Run, or drive it as a
// tea.Model; ctx bounds its calls and its event stream.
func New(ctx context.Context, c Control, o Options) *Model {
	ctx, stop := context.WithCancel(ctx)
	m := &Model{c: c, ctx: ctx, stop: stop, opts: o.withDefaults(), width: 80, height: 24,
		priority: messages.PriorityNormal, dirty: true}
	m.display = m.opts.Display
	m.agent = m.opts.Agent
	m.composer = newComposer()
	m.conv = viewport.New(80, 10)
	m.conv.KeyMap = viewport.KeyMap{} // scrolling keys are handled by Update, the composer gets the rest
	m.layout()
	return m
}

// newComposer is the prompt input: Enter submits, Alt+Enter or Ctrl+J
// starts a new line.
func newComposer() textarea.Model {
	ta := textarea.New()
	ta.Prompt = "> "
	ta.ShowLineNumbers = false
	ta.Placeholder = "Type a prompt, or /help"
	ta.CharLimit = 0
	ta.SetHeight(2)
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"))
	ta.FocusedStyle.CursorLine = ta.FocusedStyle.Text
	ta.Focus()
	return ta
}

// Init connects: it reads the selected agent's newest page at once (the
// default agent's, found by its summary, when none was asked for), and
// the runtime status and agent list beside it.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(textarea.Blink, m.refreshRuntime(), m.tick(), m.start())
}

// start reads what the first paint needs: the agent's newest page, or
// first which agent is the default.
func (m *Model) start() tea.Cmd {
	switch {
	case m.agent == "":
		return m.pick()
	case m.loading || m.loaded:
		return nil
	}
	m.loading = true
	return tea.Batch(m.load(), m.refresh())
}

// Close ends the console's calls and its event stream and waits for the
// stream's goroutine. It sends nothing to the runtime.
func (m *Model) Close() {
	m.stop()
	m.feed.stop()
	m.feed = nil
}

// Agent returns the selected agent.
func (m *Model) Agent() string { return m.agent }

// Display returns the display mode.
func (m *Model) Display() Display { return m.display }
