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
	Addr        string `help:"Reach the control API on TCP at HOST:PORT instead of the home's unix socket (needs the token)." env:"HOLON_CONTROL_ADDR" placeholder:"HOST:PORT"`
	TokenFile   string `name:"token-file" help:"File holding the TCP control token (with --addr)." type:"path" placeholder:"FILE"`
	Token       string `help:"The TCP control token (with --addr; prefer --token-file)." env:"HOLON_CONTROL_TOKEN" placeholder:"TOKEN"`
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

// client dials the home's socket, or TCP with a token.
func (t *tuiCmd) client(e *env) (*control.Client, error) {
	if t.Addr == "" {
		if t.Token != "" || t.TokenFile != "" {
			return nil, usage(errors.New("--token and --token-file go with --addr: the unix socket needs none"))
		}
		return dial(e)
	}
	token := t.Token
	if t.TokenFile != "" {
		if token != "" {
			return nil, usage(errors.New("give --token or --token-file, not both"))
		}
		var err error
		if token, err = control.ReadTokenFile(t.TokenFile); err != nil {
			return nil, usage(err)
		}
	}
	if token == "" {
		return nil, usage(errors.New("--addr needs the control token: --token-file FILE (e.g. $HOLON_HOME/run/control.token) or HOLON_CONTROL_TOKEN"))
	}
	return control.NewTCPClient(t.Addr, token), nil
}
