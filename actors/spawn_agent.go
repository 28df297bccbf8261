package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/actors/tasks"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/task"
	"github.com/holon-actors/holon-actors/tools/worktree"
)

// DefaultMaxActiveChildren bounds the private children an agent supervises
// at once when AgentDeps leaves MaxActiveChildren zero.
const DefaultMaxActiveChildren = 64

// ErrAgentExists is wrapped when SpawnAgent public_named names an agent
// that already exists.
var ErrAgentExists = errors.New("agent already exists")

// spawn runs SpawnAgent for this agent. A private child is only described
// here: its task_started is journaled with the result (toolFinished) and
// the child is created and started after that (ensureChildren). A public
// named agent is created now.
func (a *agent) spawn(ctx context.Context, args runtimetools.SpawnAgentArgs) tools.Result {
	if args.Preset == runtimetools.PresetPublicNamed {
		return a.spawnPublic(ctx, args)
	}
	if a.atChildLimit() {
		n := len(a.state.RunningChildTasks())
		return tools.Failure(runtimetools.SpawnAgentToolName, messages.ToolError, tools.ToolError{Kind: "too_many_children",
			Message:      fmt.Sprintf("you already supervise %d running children, the limit", n),
			RecoveryHint: "wait for a child's task_result, or stop one with TaskStop, before spawning another"})
	}
	childID, taskID := messages.NewID("child"), messages.NewID("task")
	var wt *worktree.Info
	if args.WorkspaceMode == runtimetools.WorkspaceWorktree {
		planned, fail := a.makeWorktree(ctx, taskID)
		if fail != nil {
			return *fail
		}
		wt = &planned
	}
	return privateChildResult(a.id, args, childID, taskID, wt)
}

// privateChildResult is SpawnAgent's result for parent's private child
// childID, supervised through task taskID, in worktree wt if not nil.
func privateChildResult(parent string, args runtimetools.SpawnAgentArgs, childID, taskID string, wt *worktree.Info) tools.Result {
	label := oneLine(args.InitialMessage, 80)
	sup := tasks.ChildSupervision(parent, childID, taskID)
	text := fmt.Sprintf("Started private child %s; supervise it through task %s.", childID, taskID)
	if wt != nil {
		sup.WorkspaceMode, sup.Worktree = runtimetools.WorkspaceWorktree, wt
		text += fmt.Sprintf(" It works in the git worktree %s on branch %s, made from commit %s.", wt.ExecRoot(), wt.Branch, shortCommit(wt.BaseCommit))
	}
	return tools.Success(runtimetools.SpawnAgentToolName, text, runtimetools.SpawnResult{
		AgentID: childID, ChildAgentID: childID, SupervisionTaskID: taskID,
		TaskHandle:       &runtimetools.SpawnTaskHandle{TaskID: taskID, Kind: task.KindChildAgent, WaitPolicy: "background", Summary: label},
		ChildSupervision: &sup,
	})
}

// spawnWorktreeChild is SpawnAgent for a worktree-mode private child:
// the limit, the ids and the workspace are decided here, in Receive;
// planning the worktree runs git, so it is left to a step goroutine
// (later), which builds the result and the child's task_started from what
// was captured. false leaves every refusal to spawnFromTool, which gives
// it before any git runs.
func (a *agent) spawnWorktreeChild(call messages.ToolCall, valid tools.Result) (slowDecision, bool) {
	args, ok := resultOf[runtimetools.SpawnAgentArgs](valid)
	if !ok || args.Preset != runtimetools.PresetPrivateChild || args.WorkspaceMode != runtimetools.WorkspaceWorktree ||
		a.atChildLimit() || a.deps.ToolEnv.Home == "" {
		return nil, false
	}
	env := a.deps.ToolEnv
	root, err := env.root(a.id, a.executionRoot())
	if err != nil {
		return nil, false
	}
	childID, taskID := messages.NewID("child"), messages.NewID("task")
	parent, parentMessage := a.id, a.state.Turn.MessageID
	dir, path, branch := root.Dir(), env.worktreePath(taskID), "holon/"+taskID
	return func(ctx context.Context) (tools.Result, []messages.Payload) {
		wt, fail := planWorktree(ctx, dir, path, branch)
		if fail != nil {
			return *fail, nil
		}
		res := privateChildResult(parent, args, childID, taskID, &wt)
		if started := childTaskStarted(call, res, parentMessage); started != nil {
			return res, []messages.Payload{*started}
		}
		return res, nil
	}, true
}

// makeWorktree plans the task-owned worktree of a worktree-mode child from
// this agent's execution root; a refusal is the tool's failure. The
// worktree is made with the child (ensureChild), after the task is
// journaled, so a crash in between leaves no worktree nobody owns.
func (a *agent) makeWorktree(ctx context.Context, taskID string) (worktree.Info, *tools.Result) {
	fail := func(kind, msg, hint string) (worktree.Info, *tools.Result) {
		r := tools.Failure(runtimetools.SpawnAgentToolName, messages.ToolError, tools.ToolError{Kind: kind, Message: msg, RecoveryHint: hint})
		return worktree.Info{}, &r
	}
	env := a.deps.ToolEnv
	if env.Home == "" {
		return fail("runtime_misconfigured", "this runtime has no home directory for worktrees", "use workspace_mode inherit")
	}
	root, err := env.root(a.id, a.executionRoot())
	if err != nil {
		return fail("worktree_failed", err.Error(), "use workspace_mode inherit")
	}
	return planWorktree(ctx, root.Dir(), env.worktreePath(taskID), "holon/"+taskID)
}

// planWorktree plans the worktree at path on a new branch from the
// repository of dir; a refusal is SpawnAgent's failure. It runs git.
func planWorktree(ctx context.Context, dir, path, branch string) (worktree.Info, *tools.Result) {
	fail := func(kind, msg, hint string) (worktree.Info, *tools.Result) {
		r := tools.Failure(runtimetools.SpawnAgentToolName, messages.ToolError, tools.ToolError{Kind: kind, Message: msg, RecoveryHint: hint})
		return worktree.Info{}, &r
	}
	wt, err := worktree.Plan(ctx, dir, path, branch)
	switch {
	case errors.Is(err, worktree.ErrNotRepository):
		return fail("not_a_repository", fmt.Sprintf("your workspace %s is not inside a git repository", dir),
			"use workspace_mode inherit, or ask the operator to run the runtime with --workspace inside a git repository")
	case errors.Is(err, worktree.ErrNoCommits):
		return fail("no_commits", "the repository of your workspace has no commit to branch from", "commit first, or use workspace_mode inherit")
	case err != nil:
		return fail("worktree_failed", err.Error(), "use workspace_mode inherit, or retry")
	}
	return wt, nil
}

// worktreePath is where the worktree of task taskID lives: under the
// runtime's home (or Worktrees), outside every repository.
func (e ToolEnv) worktreePath(taskID string) string {
	dir := e.Worktrees
	if dir == "" {
		dir = filepath.Join(e.Home, "worktrees")
	}
	return filepath.Join(dir, taskID)
}

func shortCommit(c string) string { return c[:min(len(c), 12)] }

// spawnPublic creates a self-owned public agent with lineage provenance
// and, when given, its bootstrap message; the new journal is written only
// if the agent does not exist (the append is fenced at an empty stream).
func (a *agent) spawnPublic(ctx context.Context, args runtimetools.SpawnAgentArgs) tools.Result {
	payloads := []messages.Payload{
		messages.AgentCreated{AgentID: args.AgentID, Kind: messages.AgentNamed, Visibility: messages.VisibilityPublic,
			Ownership: messages.OwnershipSelfOwned, ProfilePreset: runtimetools.PresetPublicNamed, ParentAgentID: a.id},
		messages.AgentStateChanged{From: messages.StatusBooting, To: messages.StatusAwakeIdle, Reason: "created by agent " + a.id},
	}
	payloads = a.withCreatorPolicy(payloads)
	payloads = append(payloads, agentstate.InheritedWorkspaces(a.state, a.id)...) // the attached set, never the active entry
	if strings.TrimSpace(args.InitialMessage) != "" {
		env := delegationEnvelope(args.AgentID, a.deps.Clock.Now(), args.InitialMessage,
			map[string]string{"creator_agent_id": a.id, "bootstrap": "true"})
		payloads = append(payloads, messages.MessageAdmitted{Envelope: env})
	}
	if err := a.createStream(ctx, args.AgentID, payloads); err != nil {
		if errors.Is(err, ErrAgentExists) {
			return tools.Failure(runtimetools.SpawnAgentToolName, messages.ToolError, tools.ToolError{Kind: "agent_exists",
				Message:      fmt.Sprintf("agent %q already exists", args.AgentID),
				RecoveryHint: "pick another agent_id, or talk to the existing agent through its operator"})
		}
		return tools.Failure(runtimetools.SpawnAgentToolName, messages.ToolError, tools.ToolError{Kind: "spawn_failed",
			Message: fmt.Sprintf("agent %q could not be created: %v", args.AgentID, err), Retryable: true,
			RecoveryHint: "retry in a moment"})
	}
	if rt := a.wire.host; rt != nil {
		rt.Forward(args.AgentID, &kick{}) // start its bootstrap turn
	}
	return tools.Success(runtimetools.SpawnAgentToolName, fmt.Sprintf("Created public agent %s.", args.AgentID), runtimetools.SpawnResult{AgentID: args.AgentID})
}

// createStream writes the first events of a new agent's journal, only if
// it has none (ErrAgentExists otherwise).
func (a *agent) createStream(ctx context.Context, id string, payloads []messages.Payload) error {
	now := a.deps.Clock.Now()
	evs := make([]messages.Event, len(payloads))
	for i, p := range payloads {
		ev, err := messages.NewEvent(id, now, p)
		if err != nil {
			return err
		}
		evs[i] = ev
	}
	_, err := a.deps.Store.AppendAfter(ctx, id, 0, evs)
	if errors.Is(err, persistence.ErrSeqConflict) {
		return fmt.Errorf("%w: %s", ErrAgentExists, id)
	}
	return err
}

// delegationEnvelope is a parent's (or creator's) message to agent id:
// runtime-owned, so runtime instruction, never operator authority.
func delegationEnvelope(id string, now time.Time, text string, refs map[string]string) messages.MessageEnvelope {
	env := messages.MessageEnvelope{
		ID: messages.NewID("msg"), AgentID: id, CreatedAt: now, Kind: messages.KindInternalFollowup,
		Origin: messages.SystemOrigin("delegation"), Priority: messages.PriorityNormal, Body: messages.TextBody(text),
		SourceRefs: refs, DeliverySurface: messages.SurfaceRuntimeSystem, AdmissionContext: messages.AdmissionRuntimeOwned,
	}
	env.Normalize()
	env.AuthorityClass = messages.DeriveAuthority(env.Origin.Kind, env.DeliverySurface, env.AdmissionContext)
	return env
}

// spawnStarted is the task_started of a successful private SpawnAgent
// call, journaled in the same batch as its result; nil for anything else.
func (a *agent) spawnStarted(call messages.ToolCall, res tools.Result) *messages.TaskStarted {
	parent := ""
	if t := a.state.Turn; t != nil {
		parent = t.MessageID
	}
	return childTaskStarted(call, res, parent)
}

// childTaskStarted is spawnStarted with the turn's message given.
func childTaskStarted(call messages.ToolCall, res tools.Result, parentMessageID string) *messages.TaskStarted {
	if res.Status != messages.ToolOK {
		return nil
	}
	var env struct {
		Result runtimetools.SpawnResult `json:"result"`
	}
	var args runtimetools.SpawnAgentArgs
	if json.Unmarshal(res.Envelope, &env) != nil || env.Result.SupervisionTaskID == "" || json.Unmarshal(call.Arguments, &args) != nil {
		return nil
	}
	cr := agentstate.ChildTaskRecord{ChildAgentID: env.Result.ChildAgentID, Summary: env.Result.TaskHandle.Summary,
		Prompt: args.InitialMessage, Trust: messages.TrustedSystem, WorkspaceMode: runtimetools.WorkspaceInherit}
	if sup := env.Result.ChildSupervision; sup != nil && sup.Worktree != nil {
		cr.WorkspaceMode, cr.Worktree = runtimetools.WorkspaceWorktree, sup.Worktree
	}
	rec, err := json.Marshal(cr)
	if err != nil {
		return nil
	}
	started := messages.TaskStarted{TaskID: env.Result.SupervisionTaskID, Kind: task.KindChildAgent,
		Summary: env.Result.TaskHandle.Summary, Record: rec}
	started.ParentMessageID = parentMessageID
	return &started
}

// atChildLimit reports that the agent supervises as many running children
// as it may.
func (a *agent) atChildLimit() bool {
	max := a.deps.MaxActiveChildren
	if max <= 0 {
		max = DefaultMaxActiveChildren
	}
	return len(a.state.RunningChildTasks()) >= max
}
