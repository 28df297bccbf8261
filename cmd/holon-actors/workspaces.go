package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"text/tabwriter"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
)

// workspaceClient is what the workspace commands call; the control API's
// clients (socket, --url) and the remote one (--remote) have it.
type workspaceClient interface {
	Workspaces(ctx context.Context, id string) (agentstate.WorkspaceView, error)
	UseWorkspace(ctx context.Context, id string, req actors.WorkspaceRequest) (agentstate.WorkspaceView, error)
	DetachWorkspace(ctx context.Context, id, workspaceID string) (agentstate.WorkspaceView, error)
}

// agentsWorkspaceCmd groups the workspace commands.
type agentsWorkspaceCmd struct {
	Use    workspaceUseCmd    `cmd:"" help:"Make a workspace the agent's active one: a directory (attached if new; its anchor is its git root) or an attached --id (agent_home: its own home). Its tools run there from the next call on, across restarts; its workspace AGENTS.md is read from the anchor."`
	List   workspaceListCmd   `cmd:"" help:"Show the agent's active workspace and its attached ones."`
	Detach workspaceDetachCmd `cmd:"" help:"Remove a workspace from the agent's attached set (refused for the active one); nothing on disk is touched."`
}

type workspaceUseCmd struct {
	Path string `arg:"" optional:"" help:"The directory to work in." type:"path"`
	ID   string `name:"id" help:"An attached workspace's id instead of a path (agent_home: the agent's own home)." placeholder:"WORKSPACE_ID"`
	Mode string `help:"direct: work in the workspace itself; isolated: in a runtime-managed git worktree of it." enum:"direct,isolated" default:"direct"`
}

type workspaceListCmd struct {
	Agent string `arg:"" optional:"" help:"Agent id (default: --agent, else the default agent)."`
}

type workspaceDetachCmd struct {
	ID string `arg:"" help:"The workspace id (agents workspace list shows them)."`
}

var (
	_ workspaceClient = (*control.Client)(nil)
	_ workspaceClient = remoteRuntime{}
)

// workspaceSession dials the runtime for a workspace command on agent id.
func workspaceSession(ctx context.Context, e *env, id string) (workspaceClient, func(), string, error) {
	c, id, err := agentSession(ctx, e, id)
	if err != nil {
		return nil, nil, "", err
	}
	wc, ok := c.(workspaceClient)
	if !ok {
		c.Close()
		return nil, nil, "", errors.New("workspaces are not served over this connection: use the control socket, --url or --remote")
	}
	return wc, c.Close, id, nil
}

// Run switches the workspace.
func (w *workspaceUseCmd) Run(ctx context.Context, e *env) error {
	if (w.Path == "") == (w.ID == "") {
		return usage(errors.New("give a directory or --id WORKSPACE_ID (one of them)"))
	}
	req := actors.WorkspaceRequest{WorkspaceID: w.ID, Mode: w.Mode}
	if w.Path != "" {
		abs, err := filepath.Abs(w.Path)
		if err != nil {
			return usage(err)
		}
		req.Path = abs
	}
	c, done, id, err := workspaceSession(ctx, e, "")
	if err != nil {
		return err
	}
	defer done()
	v, err := c.UseWorkspace(ctx, id, req)
	if err != nil {
		return err
	}
	return printWorkspaces(e, id, v)
}

// Run lists the workspaces.
func (w *workspaceListCmd) Run(ctx context.Context, e *env) error {
	c, done, id, err := workspaceSession(ctx, e, w.Agent)
	if err != nil {
		return err
	}
	defer done()
	v, err := c.Workspaces(ctx, id)
	if err != nil {
		return err
	}
	return printWorkspaces(e, id, v)
}

// Run detaches the workspace.
func (w *workspaceDetachCmd) Run(ctx context.Context, e *env) error {
	c, done, id, err := workspaceSession(ctx, e, "")
	if err != nil {
		return err
	}
	defer done()
	v, err := c.DetachWorkspace(ctx, id, w.ID)
	if err != nil {
		return err
	}
	return printWorkspaces(e, id, v)
}

func printWorkspaces(e *env, id string, v agentstate.WorkspaceView) error {
	if e.JSON {
		return printJSON(e, v)
	}
	a := v.Active
	fmt.Fprintf(e.stdout, "agent %s works in %s (%s, anchor %s)\nexecution root: %s\n", id, a.WorkspaceID, a.Mode, a.Anchor, a.ExecutionRoot)
	if a.WorktreePath != "" {
		fmt.Fprintf(e.stdout, "worktree: %s on branch %s\n", a.WorktreePath, a.WorktreeBranch)
	}
	if v.Guidance != "" {
		fmt.Fprintln(e.stdout, v.Guidance)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKSPACE\tANCHOR\tPATH\tACTIVE")
	fmt.Fprintf(tw, "%s\t%s\t%s\t%t\n", "agent_home", "-", "-", a.WorkspaceID == "agent_home")
	for _, w := range v.Attached {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%t\n", w.WorkspaceID, w.Anchor, w.Path, w.WorkspaceID == a.WorkspaceID)
	}
	return tw.Flush()
}
