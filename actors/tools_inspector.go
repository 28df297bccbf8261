package actors

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/tasks"
	"github.com/holon-actors/holon-actors/messages"
	toolagent "github.com/holon-actors/holon-actors/tools/agent"
	"github.com/holon-actors/holon-actors/tools/task"
)

// inspector serves AgentGet for one calling agent over the Runtime: an
// agent's identity (visibility, ownership, profile_preset, lineage),
// status, queue, turn and active tasks. It never shows a transcript.
// Another agent's private child is invisible, and indistinguishable from
// an unknown agent.
type inspector struct {
	rt     *Runtime
	caller string
	env    ToolEnv
}

var _ toolagent.Inspector = (*inspector)(nil)

// inspection is an agent's answer to inspectAgent.
type inspection struct {
	info    agentstate.AgentInfo
	waiting string                  // the waiting reason of the last closure
	tasks   []agentstate.TaskRecord // running ones
}

// inspection is what AgentGet may show of the agent.
func (a *agent) inspection() inspection {
	in := inspection{info: a.state.Info()}
	in.info.LoadedAgentsMD = a.guide.g.Sources()
	if c := a.state.LastClosure; c != nil {
		in.waiting = string(c.WaitingReason)
	}
	for _, r := range a.state.OpenTasks() {
		in.tasks = append(in.tasks, *r)
	}
	return in
}

// AgentGet implements toolagent.Inspector.
func (i *inspector) AgentGet(ctx context.Context, id string) (toolagent.Summary, error) {
	if id == "" {
		id = i.caller
	}
	if ValidateAgentID(id) != nil {
		return toolagent.Summary{}, fmt.Errorf("%w: %q", toolagent.ErrUnknownAgent, id)
	}
	if id != i.caller {
		ok, err := i.rt.Exists(ctx, id)
		if err != nil {
			return toolagent.Summary{}, err
		}
		if !ok { // asking would create it
			return toolagent.Summary{}, fmt.Errorf("%w: %q", toolagent.ErrUnknownAgent, id)
		}
	}
	res, err := i.rt.ask(ctx, id, &inspectAgent{})
	if err != nil {
		return toolagent.Summary{}, err
	}
	in := res.(inspection)
	if !i.visible(in.info) {
		return toolagent.Summary{}, fmt.Errorf("%w: %q", toolagent.ErrNotVisible, id)
	}
	s := i.summary(in)
	s.ActiveChildren = i.children(ctx, in)
	return s, nil
}

// children is the observability of the agent's running children, asked
// of each child (one that does not answer shows only its identity).
func (i *inspector) children(ctx context.Context, in inspection) []toolagent.Child {
	var out []toolagent.Child
	for _, r := range in.tasks {
		if r.Child == nil {
			continue
		}
		ch := toolagent.Child{ChildAgentID: r.Child.ChildAgentID, SupervisionTaskID: r.TaskID, Phase: task.PhaseRunning}
		if o := i.rt.childObservability(ctx, r); o != nil {
			ch.Phase, ch.BlockedReason, ch.WaitingReason = o.Phase, o.BlockedReason, o.WaitingReason
			ch.WorkSummary, ch.LastProgressBrief, ch.LastResultBrief = o.WorkSummary, o.LastProgressBrief, o.LastResultBrief
			ch.ActiveWorkItemID = o.ActiveWorkItemID
		}
		out = append(out, ch)
	}
	return out
}

// visible: public agents, the caller itself, and the caller's own
// private children.
func (i *inspector) visible(in agentstate.AgentInfo) bool {
	return in.ID == i.caller || in.Visibility != messages.VisibilityPrivate || in.ParentAgentID == i.caller
}

func (i *inspector) summary(in inspection) toolagent.Summary {
	s := toolagent.Summary{
		Identity: toolagent.Identity{AgentID: in.info.ID, Kind: in.info.Kind, Visibility: in.info.Visibility,
			Ownership: in.info.Ownership, ProfilePreset: in.info.ProfilePreset, LineageParentAgentID: in.info.ParentAgentID},
		Status: in.info.Status, QueuedMessages: in.info.Queued, TurnInFlight: in.info.TurnInFlight, LastError: in.info.LastError,
		WaitingReason: in.waiting,
	}
	for _, src := range in.info.LoadedAgentsMD {
		s.LoadedAgentsMD = append(s.LoadedAgentsMD, toolagent.InstructionSource{Scope: src.Scope, Path: src.Path, Kind: src.Kind,
			Bytes: src.Bytes, Truncated: src.Truncated})
	}
	if w := in.info.Workspace; w != nil && in.info.ExecutionRoot == "" {
		s.Workspace = &toolagent.Workspace{WorkspaceID: w.WorkspaceID, WorkspaceAnchor: w.Anchor, ExecutionRoot: w.ExecutionRoot, Cwd: w.Cwd}
	} else if i.env.Home != "" {
		if root, err := i.env.root(in.info.ID, in.info.ExecutionRoot); err == nil {
			id := "agent_home"
			switch {
			case in.info.ExecutionRoot != "":
				id = "worktree"
			case i.env.Workspace != "":
				id = "workspace"
			}
			s.Workspace = &toolagent.Workspace{WorkspaceID: id, ExecutionRoot: root.Dir()}
		}
	}
	arts, _ := i.env.artifacts(in.info.ID, i.rt.deps.Secrets)
	for _, r := range in.tasks {
		s.ActiveTasks = append(s.ActiveTasks, tasks.Snapshot(r, arts))
	}
	return s
}
