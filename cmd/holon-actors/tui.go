package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/tui"
)

// tuiCmd is `holon-actors tui`: the operator console.
type tuiCmd struct {
	Display     string `help:"What the conversation shows: info (3), verbose (4) or debug (5)." default:"info" placeholder:"MODE"`
	NoAltScreen bool   `name:"no-alt-screen" help:"Draw in the terminal's normal scrollback instead of the alternate screen."`
}

// Run starts the console on the selected agent (--agent, else the
// runtime's default) and returns when the operator leaves it.
func (t *tuiCmd) Run(ctx context.Context, e *env) error {
	d, err := tui.ParseDisplay(t.Display)
	if err != nil {
		return usage(fmt.Errorf("--display: %w", err))
	}
	c, err := t.client(e)
	if err != nil {
		return err
	}
	defer c.Close()
	return tui.Run(ctx, c, tui.Options{Agent: e.Agent, Display: d}, tui.RunOptions{NoAltScreen: t.NoAltScreen})
}

// client dials the home's socket, or the control API on TCP with the
// global --url and --url-token-file; the console needs the whole control
// API, which the cluster protocol (--remote) does not carry.
func (t *tuiCmd) client(e *env) (*control.Client, error) {
	if len(e.Remote) > 0 {
		return nil, usage(errors.New("the console runs over the control socket or --url, not --remote: drop --remote, or use --url http://HOST:PORT --url-token-file FILE"))
	}
	c, err := dialRuntime(e)
	if err != nil {
		return nil, err
	}
	return c.(*control.Client), nil // the socket and --url are control clients
}
