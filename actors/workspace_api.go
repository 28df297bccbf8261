package actors

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/agenthome"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/tools/worktree"
)

// ErrWorkspacePath is returned by UseWorkspace for a path that is not an
// existing directory.
var ErrWorkspacePath = errors.New("actors: workspace path is not a directory")

// WorkspaceRequest asks to make a workspace an agent's active one:
// exactly one of Path (attached now if new) and WorkspaceID (an attached
// one, or agent_home); Mode is direct (the default) or isolated (a
// runtime-managed worktree of it).
type WorkspaceRequest struct {
	Path        string `json:"path,omitempty"`
	WorkspaceID string `json:"workspace_id,omitempty"`
	Mode        string `json:"mode,omitempty"`
}

// useWorkspace asks an agent to decide a resolved switch; the reply is
// *workspaceReply.
type useWorkspace struct{ use agentstate.WorkspaceUse }

// detachWorkspace asks an agent to detach a workspace; the reply is
// *workspaceReply.
type detachWorkspace struct{ id string }

// getWorkspaces asks an agent for its WorkspaceView; the reply is
// *workspaceReply.
type getWorkspaces struct{}

type workspaceReply struct {
	view agentstate.WorkspaceView
	err  error
}

// Priority implements mailbox.Prioritized: like lifecycle commands.
func (*useWorkspace) Priority() messages.Priority    { return messages.PriorityInterject }
func (*detachWorkspace) Priority() messages.Priority { return messages.PriorityInterject }
func (*getWorkspaces) Priority() messages.Priority   { return messages.PriorityInterject }

// Workspaces is agent id's active workspace and attached set.
func (r *Runtime) Workspaces(ctx context.Context, id string) (agentstate.WorkspaceView, error) {
	return r.askWorkspace(ctx, id, &getWorkspaces{})
}

// DetachWorkspace removes workspaceID from agent id's attached set. It
// refuses the active workspace (agentstate.ErrActiveWorkspace) and the
// agent's home; nothing on disk is touched.
func (r *Runtime) DetachWorkspace(ctx context.Context, id, workspaceID string) (agentstate.WorkspaceView, error) {
	return r.askWorkspace(ctx, id, &detachWorkspace{id: workspaceID})
}

// UseWorkspace makes req's workspace agent id's active one, attaching a
// new path first. The path's anchor is found, and an isolated worktree
// made, here, in the caller's goroutine; the agent then decides and
// journals the switch. Bad requests match agentstate.ErrWorkspaceRequest,
// ErrUnknownWorkspace or ErrWorkspacePath and change nothing.
func (r *Runtime) UseWorkspace(ctx context.Context, id string, req WorkspaceRequest) (agentstate.WorkspaceView, error) {
	if (req.Path == "") == (req.WorkspaceID == "") {
		return agentstate.WorkspaceView{}, fmt.Errorf("%w: give exactly one of path and workspace_id", agentstate.ErrWorkspaceRequest)
	}
	if req.Mode == "" {
		req.Mode = messages.WorkspaceDirect
	}
	cur, err := r.Workspaces(ctx, id)
	if err != nil {
		return cur, err
	}
	use, err := r.deps.ToolEnv.resolveWorkspace(ctx, id, req, cur)
	if err != nil {
		return cur, err
	}
	v, err := r.askWorkspace(ctx, id, &useWorkspace{use: use})
	if err == nil {
		v.Guidance = agentstate.AdoptionGuidance(use)
	}
	return v, err
}

func (r *Runtime) askWorkspace(ctx context.Context, id string, msg any) (agentstate.WorkspaceView, error) {
	if ok, err := r.Exists(ctx, id); err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("agent %s: %w", id, ErrNoAgent)
		}
		return agentstate.WorkspaceView{}, err
	}
	res, err := r.ask(ctx, id, msg)
	if err != nil {
		return agentstate.WorkspaceView{}, err
	}
	rep := res.(*workspaceReply)
	return rep.view, rep.err
}

// resolveWorkspace finds what req names: the attached entry and the
// execution root, making the worktree of isolated mode.
func (e ToolEnv) resolveWorkspace(ctx context.Context, agentID string, req WorkspaceRequest, cur agentstate.WorkspaceView) (agentstate.WorkspaceUse, error) {
	var u agentstate.WorkspaceUse
	u.Use = messages.WorkspaceUsed{WorkspaceID: req.WorkspaceID, Mode: req.Mode}
	if req.Mode != messages.WorkspaceDirect && req.Mode != messages.WorkspaceIsolated {
		return u, fmt.Errorf("%w: mode %q: use direct or isolated", agentstate.ErrWorkspaceRequest, req.Mode)
	}
	dir := ""
	switch {
	case req.WorkspaceID == messages.AgentHomeWorkspace:
		if req.Mode == messages.WorkspaceIsolated {
			return u, fmt.Errorf("%w: the agent's home is used directly: give mode direct", agentstate.ErrWorkspaceRequest)
		}
		return u, nil // the home: ToolEnv.root finds it
	case req.WorkspaceID != "":
		att, ok := attachedIn(cur, req.WorkspaceID)
		if !ok {
			return u, fmt.Errorf("%w: %q: attach it with a path first", agentstate.ErrUnknownWorkspace, req.WorkspaceID)
		}
		dir = att.Path
	default:
		att, adopted, err := attachPath(ctx, req.Path, cur)
		if err != nil {
			return u, err
		}
		u.Attach, u.Use.WorkspaceID, u.AdoptedWorktree, dir = &att, att.WorkspaceID, adopted, att.Path
	}
	if req.Mode == messages.WorkspaceDirect {
		u.Use.ExecutionRoot, u.Use.Cwd = dir, dir
		return u, nil
	}
	wt, err := e.isolatedWorktree(ctx, agentID, u.Use.WorkspaceID, dir)
	if err != nil {
		return u, err
	}
	if err := os.MkdirAll(wt.ExecRoot(), 0o700); err != nil { // an untracked directory is not in the worktree
		return u, fmt.Errorf("isolated workspace %s: %w", wt.ExecRoot(), err)
	}
	u.Use.ExecutionRoot, u.Use.Cwd, u.Use.WorktreePath, u.Use.WorktreeBranch = wt.ExecRoot(), wt.ExecRoot(), wt.Path, wt.Branch
	return u, nil
}

func attachedIn(v agentstate.WorkspaceView, id string) (messages.WorkspaceAttached, bool) {
	for _, w := range v.Attached {
		if w.WorkspaceID == id {
			return w, true
		}
	}
	return messages.WorkspaceAttached{}, false
}

// attachPath resolves path (absolute, symlinks resolved, a directory) to
// its workspace: the git root holding it, or the directory. A worktree of
// a repository already attached keeps that repository's id and anchor;
// adopted is then that worktree's root.
func attachPath(ctx context.Context, path string, cur agentstate.WorkspaceView) (_ messages.WorkspaceAttached, adopted string, _ error) {
	if !filepath.IsAbs(path) {
		return messages.WorkspaceAttached{}, "", fmt.Errorf("%w: %s is not absolute", ErrWorkspacePath, path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return messages.WorkspaceAttached{}, "", fmt.Errorf("%w: %s: %v", ErrWorkspacePath, path, err)
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return messages.WorkspaceAttached{}, "", fmt.Errorf("%w: %s", ErrWorkspacePath, path)
	}
	anchor := agenthome.Anchor(real)
	if att, ok := adoptWorktree(ctx, anchor, cur.Attached); ok {
		return messages.WorkspaceAttached{WorkspaceID: att.WorkspaceID, Anchor: att.Anchor, Path: real}, anchor, nil
	}
	return messages.WorkspaceAttached{WorkspaceID: workspaceID(anchor), Anchor: anchor, Path: real}, "", nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// workspaceID is the stable id of the workspace anchored at anchor: its
// name and a digest of its path.
func workspaceID(anchor string) string {
	sum := sha256.Sum256([]byte(anchor))
	name := strings.Trim(unsafeName.ReplaceAllString(filepath.Base(anchor), "-"), "-.")
	if name == "" {
		name = "ws"
	}
	return name[:min(len(name), 40)] + "-" + hex.EncodeToString(sum[:4])
}

// isolatedWorktree is the managed worktree of workspace wsID for agent
// agentID, made from dir's repository on first use and reused after.
func (e ToolEnv) isolatedWorktree(ctx context.Context, agentID, wsID, dir string) (worktree.Info, error) {
	path := e.worktreePath("ws-" + agentID + "-" + wsID)
	branch := "holon/" + agentID + "/" + wsID
	info, err := worktree.Plan(ctx, dir, path, branch)
	if errors.Is(err, worktree.ErrExists) {
		if st, serr := os.Stat(path); serr == nil && st.IsDir() {
			sub, _ := worktreeSubdir(ctx, dir)
			return worktree.Info{Path: path, Branch: branch, Subdir: sub}, nil // made by an earlier use
		}
	}
	if err != nil {
		return worktree.Info{}, fmt.Errorf("%w: isolated mode needs a git repository with a commit: %v", agentstate.ErrWorkspaceRequest, err)
	}
	if err := worktree.Make(ctx, info); err != nil {
		return worktree.Info{}, err
	}
	return info, nil
}

// worktreeSubdir is dir's path within its repository.
func worktreeSubdir(ctx context.Context, dir string) (string, error) {
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--show-prefix").Output()
	return strings.TrimSuffix(strings.TrimSpace(string(out)), "/"), err
}

// workspaceHome is agent id's home, "" without one.
func (e ToolEnv) workspaceHome(id string) string {
	if e.Home == "" {
		return ""
	}
	home, err := persistence.AgentHome(e.Home, id)
	if err != nil {
		return ""
	}
	return home
}

// answerWorkspaces answers the workspace messages.
func (a *agent) answerWorkspaces(m any) *workspaceReply {
	var (
		b   agentstate.Batch
		err error
	)
	switch m := m.(type) {
	case *useWorkspace:
		b, err = agentstate.UseWorkspace(a.state, m.use)
	case *detachWorkspace:
		b, err = agentstate.DetachWorkspace(a.state, m.id)
	}
	if err == nil {
		err = a.commit(b)
	}
	return &workspaceReply{view: agentstate.Workspaces(a.state, a.deps.ToolEnv.workspaceHome(a.id)), err: err}
}

// executionRoot is where the agent's tools run: its worktree as a
// worktree-mode child, else its active workspace's execution root; ""
// means the runtime's workspace or its home (ToolEnv.root).
func (a *agent) executionRoot() string {
	if a.state.ExecutionRoot != "" {
		return a.state.ExecutionRoot
	}
	if w := a.state.ActiveWorkspace; w != nil {
		return w.ExecutionRoot
	}
	return ""
}

// workspaceAnchor is where the agent's workspace guidance is read from:
// its active workspace's anchor; else, when dir is set, the anchor of the
// runtime's workspace dir, which the reading goroutine finds.
func (a *agent) workspaceAnchor() (anchor, dir string) {
	if w := a.state.ActiveWorkspace; w != nil {
		if att, ok := a.state.Attached(w.WorkspaceID); ok {
			return att.Anchor, ""
		}
	}
	return "", a.deps.ToolEnv.Workspace
}
