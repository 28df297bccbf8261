package main

import (
	"context"
	"fmt"
	"strings"
)

// agentsDeleteCmd is `holon-actors agents delete`.
type agentsDeleteCmd struct {
	ID    string `arg:"" help:"The agent to delete (its private children go with it)."`
	Force bool   `help:"Delete it even while it has work in flight: its turn is aborted and its commands are stopped first."`
}

// Run deletes the agent.
func (a *agentsDeleteCmd) Run(ctx context.Context, e *env) error {
	c, err := dial(e)
	if err != nil {
		return err
	}
	defer c.Close()
	res, err := c.DeleteAgent(ctx, a.ID, a.Force)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, res)
	}
	fmt.Fprintf(e.stdout, "deleted %s\n", strings.Join(res.Deleted, ", "))
	switch {
	case res.Archive == "":
	case res.RetainedUntil.IsZero():
		fmt.Fprintf(e.stdout, "archive: %s (kept until removed; restore it with holon-actors agents import on another runtime)\n", res.Archive)
	default:
		fmt.Fprintf(e.stdout, "archive: %s (kept until %s; restore it with holon-actors agents import on another runtime)\n",
			res.Archive, res.RetainedUntil.Local().Format("2006-01-02 15:04"))
	}
	if res.Leftover != "" {
		fmt.Fprintf(e.stderr, "holon-actors: not everything was removed (the next start tries again): %s\n", res.Leftover)
	}
	return nil
}
