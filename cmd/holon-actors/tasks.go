package main

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/holon-actors/holon-actors/control"
)

// tasksCmd groups the task commands.
type tasksCmd struct {
	List tasksListCmd `cmd:"" help:"List running and recent background tasks: command, age and state (--all: every active agent's)."`
}

// tasksListCmd is `holon-actors tasks list`.
type tasksListCmd struct {
	All bool `help:"List the tasks of every active agent, not only --agent's (a dormant agent runs no task)."`
}

// Run lists the tasks, running first, then newest first.
func (l *tasksListCmd) Run(ctx context.Context, e *env) error {
	c, err := dial(e)
	if err != nil {
		return err
	}
	defer c.Close()
	id := ""
	if !l.All {
		if id, err = agentOr(ctx, c, e, ""); err != nil {
			return err
		}
	}
	list, err := c.Tasks(ctx, id)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, list)
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, "no tasks")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tTASK\tKIND\tSTATE\tAGE\tWHAT")
	for _, t := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.AgentID, t.TaskID, t.Kind, taskState(t),
			shortAge(time.Duration(t.AgeMS)*time.Millisecond), oneLineText(taskWhat(t)))
	}
	return tw.Flush()
}

// taskState is the task's status, with the exit status of a command.
func taskState(t control.TaskView) string {
	if t.ExitStatus != nil {
		return fmt.Sprintf("%s (exit %d)", t.Status, *t.ExitStatus)
	}
	return t.Status
}

// taskWhat says what the task runs: its command, its child, or its summary.
func taskWhat(t control.TaskView) string {
	switch {
	case t.Command != "":
		return t.Command
	case t.ChildAgentID != "":
		return "child " + t.ChildAgentID + ": " + t.Summary
	}
	return t.Summary
}

// shortAge is d rounded for a table: 45s, 12m, 3h5m, 2d4h.
func shortAge(d time.Duration) string {
	switch {
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
	return fmt.Sprintf("%dd%dh", int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour))
}
