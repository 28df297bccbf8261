package tui

import (
	"context"
	"errors"
	"io"

	tea "github.com/charmbracelet/bubbletea"
)

// FPS is the console's repaint rate: the most Bubble Tea allows, so a
// key shows within 8 ms of its update rather than 17 at the default 60.
const FPS = 120

// RunOptions are how the console meets the terminal.
type RunOptions struct {
	// NoAltScreen keeps the console in the terminal's normal scrollback
	// instead of the alternate screen.
	NoAltScreen bool
	// In and Out replace the terminal (tests); nil is stdin and stdout.
	In  io.Reader
	Out io.Writer
}

// Run shows the console on c until the operator quits or ctx ends. It
// leaves the runtime as it was: quitting sends nothing.
func Run(ctx context.Context, c Control, o Options, ro RunOptions) error {
	m := New(ctx, c, o)
	defer m.Close()
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(FPS)}
	if !ro.NoAltScreen {
		opts = append(opts, tea.WithAltScreen())
	}
	if ro.In != nil {
		opts = append(opts, tea.WithInput(ro.In))
	}
	if ro.Out != nil {
		opts = append(opts, tea.WithOutput(ro.Out))
	}
	_, err := tea.NewProgram(m, opts...).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
