package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/alecthomas/kong"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// timersCmd groups the commands about an agent's timers (--agent picks the
// agent, else the runtime's default one).
type timersCmd struct {
	List   timersListCmd   `cmd:"" help:"List an agent's timers, the next due first: id, schedule, next fire, fires so far, message."`
	Create timersCreateCmd `cmd:"" help:"Create a timer whose message reaches the agent as a runtime timer_tick (never operator authority): --at, --after, --every or --cron with --zone."`
	Cancel timerActionCmd  `cmd:"" help:"Cancel a timer (a fire already delivered still runs)."`
	Pause  timerActionCmd  `cmd:"" help:"Pause a timer: no fires until resumed; the runs it would have had are not owed."`
	Resume timerActionCmd  `cmd:"" help:"Resume a paused timer at its next run after now."`
	RunNow timerActionCmd  `cmd:"" name:"run-now" help:"Deliver one fire of a timer now; its schedule is unchanged."`
}

// timerClient is the part of a client that reaches timers; the cluster
// protocol does not serve them.
type timerClient interface {
	Timers(ctx context.Context, id string) ([]actors.TimerView, error)
	CreateTimer(ctx context.Context, id string, req actors.TimerRequest) (actors.TimerView, error)
	ChangeTimer(ctx context.Context, id string, op actors.TimerOp, timerID string) ([]actors.TimerView, error)
}

// timerSession dials the runtime and resolves the addressed agent.
func timerSession(ctx context.Context, e *env) (runtimeClient, timerClient, string, error) {
	c, id, err := agentSession(ctx, e, "")
	if err != nil {
		return nil, nil, "", err
	}
	tc, ok := c.(timerClient)
	if !ok {
		c.Close()
		return nil, nil, "", notRemote("timers")
	}
	return c, tc, id, nil
}

type timersListCmd struct{}

// Run prints the agent's timers.
func (l *timersListCmd) Run(ctx context.Context, e *env) error {
	c, tc, id, err := timerSession(ctx, e)
	if err != nil {
		return err
	}
	defer c.Close()
	ts, err := tc.Timers(ctx, id)
	if err != nil {
		return err
	}
	return printTimers(e, id, ts)
}

// printTimers prints timers as a table, or the list as JSON.
func printTimers(e *env, id string, ts []actors.TimerView) error {
	if e.JSON {
		if ts == nil {
			ts = []actors.TimerView{}
		}
		return printJSON(e, control.TimerList{AgentID: id, Timers: ts})
	}
	if len(ts) == 0 {
		fmt.Fprintln(e.stdout, "no timers")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIMER\tSCHEDULE\tNEXT FIRE\tFIRES\tBY\tMESSAGE")
	for _, t := range ts {
		next := "paused"
		if t.NextDueAt != nil {
			next = t.NextDueAt.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", t.TimerID, describeSchedule(t.TimerRecord), next, t.Fires, t.CreatedBy, oneLine(t.Message, 60))
	}
	return tw.Flush()
}

// describeSchedule says when a timer fires, in a few words.
func describeSchedule(r messages.TimerRecord) string {
	var s string
	switch {
	case r.Cron != "":
		s = fmt.Sprintf("cron %q %s", r.Cron, r.Zone)
	case r.EveryMS > 0:
		s = "every " + (time.Duration(r.EveryMS) * time.Millisecond).String()
	case r.At != nil:
		s = "once at " + r.At.Format(time.RFC3339)
	}
	if r.Count > 0 {
		s += fmt.Sprintf(", %d times", r.Count)
	}
	if r.Until != nil {
		s += ", until " + r.Until.Format(time.RFC3339)
	}
	return s
}

// oneLine is s on one line, cut to n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// timerRows are status's rows for the next timer fires.
func timerRows(fires []agentstate.TimerFireInfo) [][2]string {
	rows := make([][2]string, 0, len(fires))
	for i, f := range fires {
		key := ""
		if i == 0 {
			key = "next timer fires"
		}
		rows = append(rows, [2]string{key, fmt.Sprintf("%s  %s  %s", f.DueAt.Format(time.RFC3339), f.TimerID, oneLine(f.Message, 50))})
	}
	return rows
}

type timersCreateCmd struct {
	Message  []string `arg:"" help:"What the agent is to do when the timer fires."`
	At       string   `help:"Fire once at this RFC 3339 time (or first at it, with --every)." placeholder:"TIME"`
	After    string   `help:"Fire once after this duration (90s, 15m, 2h)." placeholder:"DURATION"`
	Every    string   `help:"Fire every this duration (at least the runtime's minimum interval, 1m by default)." placeholder:"DURATION"`
	Cron     string   `help:"Fire on this five-field cron expression (minute hour day month weekday), read in --zone." placeholder:"EXPR"`
	Zone     string   `help:"IANA time zone of --cron (Europe/Paris, America/New_York, UTC)." placeholder:"ZONE"`
	Priority string   `help:"Band of the delivered message: next, normal or background." default:"normal" enum:"next,normal,background"`
	Until    string   `help:"No fires after this RFC 3339 time." placeholder:"TIME"`
	Count    int      `help:"End after this many delivered fires (0: no end)." default:"0"`
	Missed   string   `help:"Runs missed while the runtime was down: skip, run_once or run_all (capped at 10)." default:"run_once" enum:"skip,run_once,run_all"`
	Overlap  string   `help:"A fire while the previous fire's message still waits: queue (at most one pending) or skip (also while its turn runs)." default:"queue" enum:"queue,skip"`
}

// Run creates the timer and prints it.
func (cr *timersCreateCmd) Run(ctx context.Context, e *env) error {
	c, tc, id, err := timerSession(ctx, e)
	if err != nil {
		return err
	}
	defer c.Close()
	v, err := tc.CreateTimer(ctx, id, actors.TimerRequest{Message: strings.Join(cr.Message, " "), At: cr.At, After: cr.After,
		Every: cr.Every, Cron: cr.Cron, Zone: cr.Zone, Priority: cr.Priority, Until: cr.Until, Count: cr.Count,
		Missed: cr.Missed, Overlap: cr.Overlap})
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, v)
	}
	next := "-"
	if v.NextDueAt != nil {
		next = v.NextDueAt.Format(time.RFC3339)
	}
	fmt.Fprintf(e.stdout, "created %s for %s (%s), next fire %s\n", v.TimerID, id, describeSchedule(v.TimerRecord), next)
	return nil
}

// timerActionCmd is cancel, pause, resume or run-now of one timer; the
// action is the command's name.
type timerActionCmd struct {
	TimerID string `arg:"" name:"timer" help:"The timer's id (timers list)."`
}

// Run does the action and prints the agent's timers after it.
func (a *timerActionCmd) Run(ctx context.Context, e *env, kctx *kong.Context) error {
	c, tc, id, err := timerSession(ctx, e)
	if err != nil {
		return err
	}
	defer c.Close()
	op := actors.TimerOp(kctx.Selected().Name)
	ts, err := tc.ChangeTimer(ctx, id, op, a.TimerID)
	if err != nil {
		return err
	}
	if !e.JSON {
		fmt.Fprintf(e.stdout, "%s: %s done\n", a.TimerID, op)
	}
	return printTimers(e, id, ts)
}

// timerLimits are run's timer limits for the agents.
func (c *runCmd) timerLimits() (agentstate.TimerLimits, error) {
	switch {
	case c.TimerMax < 1:
		return agentstate.TimerLimits{}, usage(fmt.Errorf("--timer-max-per-agent %d: give at least 1", c.TimerMax))
	case c.TimerMinEvery < time.Second:
		return agentstate.TimerLimits{}, usage(fmt.Errorf("--timer-min-interval %v: give at least 1s", c.TimerMinEvery))
	}
	return agentstate.TimerLimits{MaxPerAgent: c.TimerMax, MinInterval: c.TimerMinEvery}, nil
}
