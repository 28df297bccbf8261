package main

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/control"
)

// lastFlag is --last of the commands printing an agent's newest entries.
type lastFlag struct {
	Last int `aliases:"limit" help:"Print only the newest N (0: all)." default:"0" placeholder:"N"`
}

// check refuses a --last out of range.
func (l lastFlag) check() error {
	if l.Last < 0 || l.Last > control.MaxLast {
		return usage(fmt.Errorf("--last %d: give 0 (all) to %d", l.Last, control.MaxLast))
	}
	return nil
}

// transcriptCmd is `holon-actors transcript`.
type transcriptCmd struct {
	lastFlag
}

// Run prints the conversation.
func (t transcriptCmd) Run(ctx context.Context, e *env) error {
	if err := t.check(); err != nil {
		return err
	}
	c, id, err := agentSession(ctx, e, "")
	if err != nil {
		return err
	}
	defer c.Close()
	items, err := c.TranscriptLast(ctx, id, t.Last)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, items)
	}
	for _, it := range items {
		who := string(it.Kind)
		switch {
		case it.Kind == "message" && it.Origin != nil:
			who = string(it.Origin.Kind)
		case it.Kind == "tool_result":
			who = "tool " + it.ToolName
		}
		fmt.Fprintf(e.stdout, "[%s] %s\n", who, it.Text)
		for _, call := range it.ToolCalls {
			fmt.Fprintf(e.stdout, "  → %s %s\n", call.Name, call.Arguments)
		}
	}
	return nil
}

// briefsCmd is `holon-actors briefs`.
type briefsCmd struct {
	lastFlag
}

// Run prints the briefs.
func (b briefsCmd) Run(ctx context.Context, e *env) error {
	if err := b.check(); err != nil {
		return err
	}
	c, id, err := agentSession(ctx, e, "")
	if err != nil {
		return err
	}
	defer c.Close()
	briefs, err := c.BriefsLast(ctx, id, b.Last)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, briefs)
	}
	for _, b := range briefs {
		fmt.Fprintf(e.stdout, "%s  %-7s %s\n", b.CreatedAt.Local().Format("2006-01-02 15:04:05"), b.Kind, oneLineText(b.Text))
	}
	return nil
}
