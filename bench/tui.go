package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/tui"
)

// TUIDir is the sub-directory of TUIConfig.Dir that holds the store and
// the socket.
const TUIDir = "tui"

// The console's targets: its first paint after connecting, and a
// keystroke's repaint.
const (
	TUIFirstPaintTarget = 200 * time.Millisecond
	TUIKeystrokeTarget  = 50 * time.Millisecond
)

// TUIConfig sets the workload of TUI.
type TUIConfig struct {
	// Dir is the parent directory; TUIDir under it must be missing or hold
	// an empty store.
	Dir string
	// Events is how many events the shown agent's journal holds, written
	// by real turns before the console connects.
	Events int
	// Busy is how many agents (the shown one among them) are kept running
	// turns while the console is measured.
	Busy int
	// Paints is how many times a console connects and paints; Keystrokes
	// how many keys are typed into the last one.
	Paints, Keystrokes int
	Keep               bool
	Logger             *slog.Logger
}

// DefaultTUIConfig is an agent of 100,000 events, 20 busy agents, 5 first
// paints and 200 keystrokes.
func DefaultTUIConfig(dir string) TUIConfig {
	return TUIConfig{Dir: dir, Events: 100_000, Busy: 20, Paints: 5, Keystrokes: 200}
}

// Validate reports the first setting that cannot run.
func (c TUIConfig) Validate() error {
	switch {
	case c.Dir == "":
		return errors.New("tui bench: dir is empty")
	case c.Events < 1:
		return fmt.Errorf("tui bench: events is %d, want at least 1", c.Events)
	case c.Busy < 1:
		return fmt.Errorf("tui bench: busy is %d, want at least 1 (the shown agent)", c.Busy)
	case c.Paints < 1 || c.Keystrokes < 1:
		return fmt.Errorf("tui bench: paints %d and keystrokes %d, want at least 1 each", c.Paints, c.Keystrokes)
	}
	return nil
}

// TUIResult is what TUI measured.
type TUIResult struct {
	Events     uint64 `json:"events"`
	Busy       int    `json:"busy_agents"`
	Paints     int    `json:"paints"`
	Keystrokes int    `json:"keystrokes"`
	// FillSeconds is how long the real turns took to write Events.
	FillSeconds float64 `json:"fill_seconds"`
	// First paint: from starting a console (before it connects) to the
	// terminal write of its first screen of the shown agent's newest page.
	FirstPaintP50Ms float64 `json:"first_paint_p50_ms"`
	FirstPaintMaxMs float64 `json:"first_paint_max_ms"`
	// Keystroke: from a key reaching the program to the terminal write
	// that shows it in the composer.
	KeyP50Ms float64 `json:"key_p50_ms"`
	KeyP99Ms float64 `json:"key_p99_ms"`
	KeyMaxMs float64 `json:"key_max_ms"`
	// BusyTurns counts the turns the busy agents finished meanwhile.
	BusyTurns     int64 `json:"busy_turns"`
	WithinTargets bool  `json:"within_targets"`
}

// tuiAgent is the agent the console shows.
const tuiAgent = "tui-history"

// TUI starts a runtime and its control server on a unix socket over a
// durable store with the zero-latency model, writes cfg.Events events to
// one agent by real turns, keeps cfg.Busy agents (that one among them)
// running turns, and measures a real console program (Bubble Tea, output
// to a recording terminal) connecting to it: the first paint, then
// keystroke to repaint.
func TUI(ctx context.Context, cfg TUIConfig) (TUIResult, error) {
	if err := cfg.Validate(); err != nil {
		return TUIResult{}, err
	}
	return withControlStore(ctx, filepath.Join(cfg.Dir, TUIDir), cfg.Keep, cfg.Logger,
		func(st *persistence.BadgerStore, sock string) (TUIResult, error) { return tuiRun(ctx, cfg, st, sock) })
}

func tuiRun(ctx context.Context, cfg TUIConfig, st *persistence.BadgerStore, sock string) (res TUIResult, err error) {
	rt, err := newBenchRuntime(st, cfg.Logger)
	if err != nil {
		return TUIResult{}, err
	}
	defer func() { err = errors.Join(err, closeRuntime(rt)) }()
	_, stop, err := serveControl(control.Config{Runtime: rt, Store: st}, sock)
	if err != nil {
		return TUIResult{}, err
	}
	defer func() { err = errors.Join(err, stop()) }()
	c := control.NewUnixClient(sock)
	defer c.Close()
	res = TUIResult{Busy: cfg.Busy, Paints: cfg.Paints, Keystrokes: cfg.Keystrokes}
	began := time.Now()
	if res.Events, err = fill(ctx, c, tuiAgent, uint64(cfg.Events)); err != nil {
		return TUIResult{}, err
	}
	res.FillSeconds = time.Since(began).Seconds()

	agents := []string{tuiAgent}
	for i := 1; i < cfg.Busy; i++ {
		if _, err := c.CreateAgent(ctx, agentName(i)); err != nil {
			return TUIResult{}, fmt.Errorf("create %s: %w", agentName(i), err)
		}
		agents = append(agents, agentName(i))
	}
	busy := keepBusy(ctx, sock, agents)
	defer func() { err = errors.Join(err, busy.stop()) }()

	var paints []time.Duration
	for range cfg.Paints {
		d, err := firstPaint(ctx, sock)
		if err != nil {
			return TUIResult{}, err
		}
		paints = append(paints, d)
	}
	keys, err := keystrokes(ctx, sock, cfg.Keystrokes)
	if err != nil {
		return TUIResult{}, err
	}
	res.BusyTurns = busy.turns.Load()
	p50, _, maxP := latencySummary(paints)
	res.FirstPaintP50Ms, res.FirstPaintMaxMs = ms(p50), ms(maxP)
	k50, k99, kmax := latencySummary(keys)
	res.KeyP50Ms, res.KeyP99Ms, res.KeyMaxMs = ms(k50), ms(k99), ms(kmax)
	res.WithinTargets = maxP <= TUIFirstPaintTarget && k99 <= TUIKeystrokeTarget
	return res, nil
}

// fill runs turns on a new agent id until its journal holds n events,
// keeping its queue short of the limit. It returns the highest seq.
func fill(ctx context.Context, c *control.Client, id string, n uint64) (uint64, error) {
	if _, err := c.CreateAgent(ctx, id); err != nil {
		return 0, fmt.Errorf("create %s: %w", id, err)
	}
	for {
		st, err := c.Status(ctx, id)
		if err != nil {
			return 0, err
		}
		if st.LastSeq >= n {
			return st.LastSeq, nil
		}
		if st.Queued > 50 {
			if err := pause(ctx, 5*time.Millisecond); err != nil { // let the turns run
				return 0, err
			}
			continue
		}
		for i := range 100 {
			if _, err := c.Prompt(ctx, id, control.PromptRequest{Text: fmt.Sprintf("history prompt %d", i)}); err != nil {
				return 0, err
			}
		}
	}
}

func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// busyAgents keeps agents running turns until stop.
type busyAgents struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	turns  atomic.Int64
	mu     sync.Mutex
	err    error
}

// keepBusy starts one driver per agent: each keeps a few prompts queued.
func keepBusy(ctx context.Context, sock string, agents []string) *busyAgents {
	ctx, cancel := context.WithCancel(ctx)
	b := &busyAgents{cancel: cancel}
	for _, id := range agents {
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			c := control.NewUnixClient(sock)
			defer c.Close()
			if err := b.drive(ctx, c, id); err != nil && ctx.Err() == nil {
				b.mu.Lock()
				b.err = errors.Join(b.err, err)
				b.mu.Unlock()
			}
		}()
	}
	return b
}

func (b *busyAgents) drive(ctx context.Context, c *control.Client, id string) error {
	var last uint64
	for ctx.Err() == nil {
		st, err := c.Status(ctx, id)
		if err != nil {
			return err
		}
		if last > 0 && st.TurnIndex > last {
			b.turns.Add(int64(st.TurnIndex - last))
		}
		last = st.TurnIndex
		if st.Queued >= 2 {
			if err := pause(ctx, 2*time.Millisecond); err != nil {
				return nil
			}
			continue
		}
		if _, err := c.Prompt(ctx, id, control.PromptRequest{Text: "keep busy"}); err != nil {
			return err
		}
	}
	return nil
}

func (b *busyAgents) stop() error {
	b.cancel()
	b.wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// terminal records what a program writes, and when.
type terminal struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	wrote   chan struct{} // signalled (buffer 1) on each write
	painted atomic.Bool   // set by the console's first paint
	paintAt time.Time     // the first write after painted, guarded by mu
}

func newTerminal() *terminal { return &terminal{wrote: make(chan struct{}, 1)} }

func (t *terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf.Write(p)
	if t.painted.Load() && t.paintAt.IsZero() {
		t.paintAt = time.Now()
	}
	t.mu.Unlock()
	select {
	case t.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

// waitFor waits for a write after offset from that satisfies cond on the
// output since from.
func (t *terminal) waitFor(ctx context.Context, from int, cond func(out []byte) bool) error {
	for {
		t.mu.Lock()
		ok := cond(t.buf.Bytes()[from:])
		t.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.wrote:
		}
	}
}

func (t *terminal) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.Len()
}

// console is a console program writing to a recording terminal.
type console struct {
	p    *tea.Program
	term *terminal
	done chan error
}

func startConsole(ctx context.Context, sock string) *console {
	term := newTerminal()
	m := tui.New(ctx, control.NewUnixClient(sock), tui.Options{Agent: tuiAgent, Painted: func() { term.painted.Store(true) }})
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(term), tea.WithContext(ctx), tea.WithFPS(tui.FPS))
	c := &console{p: p, term: term, done: make(chan error, 1)}
	go func() {
		_, err := p.Run()
		m.Close()
		c.done <- err
	}()
	p.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	return c
}

func (c *console) stop() error {
	c.p.Quit()
	if err := <-c.done; err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return err
	}
	return nil
}

// firstPaint starts a console and times its first screen of the agent's
// newest events.
func firstPaint(ctx context.Context, sock string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	began := time.Now()
	c := startConsole(ctx, sock)
	var at time.Time
	err := c.term.waitFor(ctx, 0, func([]byte) bool { at = c.term.paintAt; return !at.IsZero() })
	return at.Sub(began), errors.Join(err, c.stop())
}

// keystrokes types n keys into a console following the busy agent and
// times each from the key to the write showing it.
func keystrokes(ctx context.Context, sock string, n int) ([]time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	c := startConsole(ctx, sock)
	if err := c.term.waitFor(ctx, 0, func([]byte) bool { return c.term.painted.Load() }); err != nil {
		return nil, errors.Join(err, c.stop())
	}
	out := make([]time.Duration, 0, n)
	var typed []byte
	for i := range n {
		if len(typed) == 0 || len(typed) >= 40 { // a fresh line, with a prefix no earlier one had
			c.p.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
			typed = fmt.Appendf(typed[:0], "k%d:", i)
			c.p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(string(typed))})
		}
		r := rune('a' + i%26)
		typed = append(typed, byte(r))
		want := bytes.Clone(typed)
		from := c.term.len()
		t0 := time.Now()
		c.p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		if err := c.term.waitFor(ctx, from, func(b []byte) bool { return bytes.Contains(b, want) }); err != nil {
			return nil, errors.Join(fmt.Errorf("key %d (%q) never showed: %w", i, want, err), c.stop())
		}
		out = append(out, time.Since(t0))
	}
	return out, c.stop()
}
