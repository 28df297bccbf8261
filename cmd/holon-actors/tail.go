package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/control"
)

// tailCmd is `holon-actors tail`.
type tailCmd struct {
	Last    int     `aliases:"limit" help:"How many events: the newest ones, or with --after the first ones after it (1 to 1000)." default:"20"`
	After   *uint64 `help:"Go back: print the events after this event_seq, oldest first, instead of the newest." placeholder:"SEQ"`
	Display string  `help:"Which events: info (briefs, questions, errors and messages), verbose (and progress, tool and task rows) or debug (every event)." default:"debug" enum:"info,verbose,debug"`
	Follow  bool    `short:"f" help:"Keep printing new events as they are written, until interrupted."`
}

// Run prints events, one line each (JSON: one StreamEvent per line).
func (t *tailCmd) Run(ctx context.Context, e *env) error {
	if t.Last < 1 || t.Last > control.MaxLast {
		return usage(fmt.Errorf("--last %d: give 1 to %d events", t.Last, control.MaxLast))
	}
	c, id, err := agentSession(ctx, e, "")
	if err != nil {
		return err
	}
	defer c.Close()
	mode := displayMode(t.Display)
	print := func(ev control.StreamEvent) error {
		if !mode.shows(ev) {
			return nil
		}
		return printEvent(e, ev)
	}
	var page control.EventsPage
	if t.After != nil {
		page, err = c.Events(ctx, id, *t.After, t.Last)
	} else {
		page, err = c.LastEvents(ctx, id, t.Last)
	}
	if err != nil {
		return err
	}
	for _, ev := range page.Events {
		if err := print(ev); err != nil {
			return err
		}
	}
	if !t.Follow {
		return nil
	}
	return followAgentEvents(ctx, c, id, page.NextAfter, print)
}

// followAgentEvents prints id's events after the cursor as they are written,
// resuming a broken stream, until ctx ends or the runtime refuses.
func followAgentEvents(ctx context.Context, c runtimeClient, id string, after uint64, print func(control.StreamEvent) error) error {
	for {
		next, err := c.Follow(ctx, id, after, print)
		after = next
		switch {
		case ctx.Err() != nil:
			return nil // interrupted: the normal end of --follow
		case errors.Is(err, control.ErrNotRunning), followRefused(err):
			return err
		}
		select { // the stream broke (runtime restarting?): resume from the cursor
		case <-ctx.Done():
			return nil
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// printEvent writes one event: a line, or its JSON with --json.
func printEvent(e *env, ev control.StreamEvent) error {
	if e.JSON {
		b, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.stdout, "%s\n", b)
		return err
	}
	_, err := fmt.Fprintf(e.stdout, "%6d  %s  %-26s %s\n", ev.Provenance.EventSeq,
		ev.Provenance.At.Local().Format("15:04:05.000"), ev.Provenance.Kind, ev.Presentation.Summary)
	return err
}

// displayMode is an operator display mode (runtime spec, "Local Operator
// Console Contract"): info, verbose or debug.
type displayMode string

// shows reports whether ev is a row of the mode: info keeps what an
// operator acts on (visibility up to turn_result, and the messages),
// verbose adds progress and tool and task activity, debug keeps all.
func (m displayMode) shows(ev control.StreamEvent) bool {
	p := ev.Presentation
	switch {
	case m == "debug":
		return true
	case p.Category == control.CategoryMessage:
		return true
	case p.Visibility == control.VisibilityActionRequired, p.Visibility == control.VisibilityWorkDone,
		p.Visibility == control.VisibilityTurnResult:
		return true
	case m == "verbose":
		return p.Visibility == control.VisibilityProgress || p.Category == control.CategoryTool || p.Category == control.CategoryTask
	}
	return false
}
