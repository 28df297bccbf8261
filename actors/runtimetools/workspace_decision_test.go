package runtimetools

import (
	"errors"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// TestUseWorkspaceDecision: UseWorkspace leaves the path's resolution to
// the shell (WorkspaceIO) with a copy of the agent's workspaces, and its
// Finish refuses a failed resolution or an unknown mode, or journals the
// attach and the use with a result naming the new execution root.
func TestUseWorkspaceDecision(t *testing.T) {
	st := &agentstate.State{}
	shop := messages.WorkspaceAttached{WorkspaceID: "shop-1", Anchor: "/src/shop", Path: "/src/shop"}
	use := agentstate.WorkspaceUse{Attach: &shop, Use: messages.WorkspaceUsed{WorkspaceID: "shop-1", Mode: messages.WorkspaceDirect,
		ExecutionRoot: "/src/shop", Cwd: "/src/shop"}}
	for _, c := range []struct {
		name       string
		args       UseWorkspaceArgs
		use        agentstate.WorkspaceUse
		resolveErr error
		wantOK     bool
		want       string
		batch      int
	}{
		{"resolution failed", UseWorkspaceArgs{Path: "/nope"}, agentstate.WorkspaceUse{}, errors.New("/nope does not exist"), false, "/nope does not exist", 0},
		{"a new path", UseWorkspaceArgs{Path: "/src/shop"}, use, nil, true, "Working in shop-1 (direct) at /src/shop", 2},
		{"bad mode from the shell", UseWorkspaceArgs{Path: "/src/shop"},
			agentstate.WorkspaceUse{Use: messages.WorkspaceUsed{WorkspaceID: "shop-1", Mode: "sideways"}}, nil, false, "mode", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := UseWorkspace(st, agentstate.Env{}, c.args)
			if d.Workspace == nil || d.Result.Status != "" || len(d.Batch) != 0 {
				t.Fatalf("decision %+v: want only the resolution left to do", d)
			}
			if d.Workspace.Mode != messages.WorkspaceDirect || d.Workspace.Path != c.args.Path {
				t.Errorf("resolution of %+v, want path %q in the default mode", d.Workspace, c.args.Path)
			}
			res, b := d.Workspace.Finish(c.use, c.resolveErr, "/h/agents/main")
			if ok := res.Status == messages.ToolOK; ok != c.wantOK || !strings.Contains(string(res.Envelope), c.want) || len(b) != c.batch {
				t.Errorf("Finish = %s %q, %d events; want ok %v, %q, %d events", res.Status, string(res.Envelope), len(b), c.wantOK, c.want, c.batch)
			}
			if len(st.Workspaces) != 0 || st.ActiveWorkspace != nil {
				t.Errorf("the agent's own state changed: %+v", st)
			}
		})
	}
}
