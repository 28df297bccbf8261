package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/tools/task"
	"github.com/holon-actors/holon-actors/tools/worktree"
)

// agentsChildrenCmd is `agents children`: the private children an agent
// supervises, seen through their supervision tasks.
type agentsChildrenCmd struct {
	ID  string `arg:"" optional:"" help:"Agent id (default: --agent, else the default agent)."`
	All bool   `help:"Include the children whose supervision ended (as far as the agent remembers)."`
}

// Run prints one line per child.
func (a *agentsChildrenCmd) Run(ctx context.Context, e *env) error {
	c, id, err := agentSession(ctx, e, a.ID)
	if err != nil {
		return err
	}
	defer c.Close()
	kids, err := c.Children(ctx, id, a.All)
	if err != nil {
		return err
	}
	if e.JSON {
		if kids == nil {
			kids = []actors.ChildView{}
		}
		return printJSON(e, control.ChildList{AgentID: id, Children: kids})
	}
	if len(kids) == 0 {
		fmt.Fprintf(e.stdout, "%s supervises no running child\n", id)
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CHILD\tTASK\tSTATUS\tPHASE\tWAITING FOR\tLAST BRIEF\tASSIGNMENT\tWORKTREE")
	for _, k := range kids {
		phase, waiting, brief := "?", "", ""
		if o := k.Observability; o != nil {
			phase, waiting = o.Phase, o.WaitingReason+o.BlockedReason
			brief = o.LastResultBrief
			if brief == "" {
				brief = o.LastProgressBrief
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ChildAgentID, k.SupervisionTaskID, k.TaskStatus, phase,
			dash(waiting), dash(cut(oneLineText(brief), 60)), cut(oneLineText(k.Summary), 60), worktreeCell(k.Supervision))
	}
	return tw.Flush()
}

// worktreeCell is a worktree-mode child's worktree: its path while the
// child works or once retained, with the cleanup status; "-" otherwise.
func worktreeCell(sup task.ChildSupervision) string {
	wt := sup.Worktree
	if wt == nil {
		return "-"
	}
	if wt.CleanupStatus == worktree.StatusRemoved {
		return "removed"
	}
	return wt.Path + " (" + wt.Branch + ", " + wt.CleanupStatus + ")"
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// cut is s bounded to n runes, with an ellipsis when cut.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
