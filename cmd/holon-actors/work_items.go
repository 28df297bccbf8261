package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
)

// workItemsCmd groups the commands about an agent's durable work queue.
type workItemsCmd struct {
	List workItemsListCmd `cmd:"" help:"List an agent's work items, oldest first: state, readiness, blocker and objective; * marks the current one."`
	Add  workItemsAddCmd  `cmd:"" help:"Enqueue a work item for an agent (no transcript message; its current work item stays current)."`
}

type workItemsListCmd struct {
	AgentID string `arg:"" name:"agent" help:"The agent's id."`
}

// Run prints the work items, one line each.
func (l *workItemsListCmd) Run(ctx context.Context, e *env) error {
	c, err := dial(e)
	if err != nil {
		return err
	}
	defer c.Close()
	items, err := c.WorkItems(ctx, l.AgentID)
	if err != nil {
		return err
	}
	if e.JSON {
		if items == nil {
			items = []actors.WorkItemView{}
		}
		return printJSON(e, control.WorkItemList{AgentID: l.AgentID, WorkItems: items})
	}
	if len(items) == 0 {
		fmt.Fprintln(e.stdout, "no work items")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\tWORK ITEM\tSTATE\tREADINESS\tPLAN\tTODO\tOBJECTIVE")
	for _, v := range items {
		mark := ""
		if v.Current {
			mark = "*"
		}
		objective := oneLineText(v.Objective)
		if v.BlockedBy != "" {
			objective += " (blocked by: " + oneLineText(v.BlockedBy) + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", mark, v.ID, v.State, v.Readiness, v.PlanStatus, todoCount(v), objective)
	}
	return tw.Flush()
}

// todoCount is "done/all" of a work item's checklist, "-" when empty.
func todoCount(v actors.WorkItemView) string {
	if len(v.TodoList) == 0 {
		return "-"
	}
	done := 0
	for _, t := range v.TodoList {
		if t.State == "completed" {
			done++
		}
	}
	return fmt.Sprintf("%d/%d", done, len(v.TodoList))
}

type workItemsAddCmd struct {
	AgentID   string   `arg:"" name:"agent" help:"The agent's id."`
	Objective []string `arg:"" help:"The objective, one or two sentences."`
}

// Run enqueues the work item and prints its id.
func (a *workItemsAddCmd) Run(ctx context.Context, e *env) error {
	c, err := dial(e)
	if err != nil {
		return err
	}
	defer c.Close()
	v, err := c.EnqueueWorkItem(ctx, a.AgentID, strings.Join(a.Objective, " "))
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, v)
	}
	fmt.Fprintf(e.stdout, "queued %s for %s: %s\n", v.ID, a.AgentID, v.Objective)
	return nil
}
