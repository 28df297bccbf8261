package runtimetools

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/task/taskspec"
	"github.com/holon-actors/holon-actors/tools/worktree/worktreespec"
)

// DefaultMaxActiveChildren bounds the private children an agent supervises
// at once when the configuration leaves MaxActiveChildren zero.
const DefaultMaxActiveChildren = 64

// SpawnAgent decides a validated SpawnAgent call. A private child in its
// parent's workspace is decided at once: its result and the task_started
// of its supervision task, from which the agent starts the child's actor.
// A worktree-mode child waits for its worktree's planning (Worktree), a
// public agent for its journal's creation (Create). Over the limit of
// running children it fails with too_many_children.
func SpawnAgent(st *agentstate.State, env agentstate.Env, call messages.ToolCall) Decision {
	var args SpawnAgentArgs
	_ = json.Unmarshal(call.Arguments, &args)
	_ = args.Validate() // the Call accepted them; this fills the defaults
	if args.Preset == PresetPublicNamed {
		return spawnPublic(st, env, args)
	}
	if n, limit := len(st.RunningChildTasks()), maxChildren(env.Cfg.MaxActiveChildren); n >= limit {
		return Decision{Result: tools.Failure(SpawnAgentToolName, messages.ToolError, tools.ToolError{Kind: "too_many_children",
			Message:      fmt.Sprintf("you already supervise %d running children, the limit", n),
			RecoveryHint: "wait for a child's task_result, or stop one with TaskStop, before spawning another"})}
	}
	childID, taskID := env.NewID("child"), env.NewID("task")
	parentMessage := ""
	if st.Turn != nil {
		parentMessage = st.Turn.MessageID
	}
	child := func(wt *worktreespec.Info) (tools.Result, agentstate.Batch) {
		res, started := privateChild(env.AgentID, args, childID, taskID, wt)
		started.ParentMessageID = parentMessage
		return res, agentstate.Batch{started}
	}
	if args.WorkspaceMode == WorkspaceWorktree {
		return Decision{Worktree: &WorktreeIO{TaskID: taskID, Branch: "holon/" + taskID,
			Finish: func(wt worktreespec.Info) (tools.Result, agentstate.Batch) { return child(&wt) }}}
	}
	res, batch := child(nil)
	return Decision{Result: res, Batch: batch}
}

// maxChildren is the limit of running children configured as max.
func maxChildren(max int) int {
	if max <= 0 {
		return DefaultMaxActiveChildren
	}
	return max
}

// ChildSupervision is the supervision boundary of parent's private child
// child, supervised through task taskID in its parent's workspace.
func ChildSupervision(parent, child, taskID string) taskspec.ChildSupervision {
	return taskspec.ChildSupervision{ParentAgentID: parent, ChildAgentID: child, SupervisionTaskID: taskID,
		WorkspaceMode: WorkspaceInherit, CleanupOwner: "supervision_task", FollowupTarget: "parent_supervisor"}
}

// privateChild is SpawnAgent's result for parent's private child childID,
// supervised through task taskID, in worktree wt if not nil, and the
// task_started of that task.
func privateChild(parent string, args SpawnAgentArgs, childID, taskID string, wt *worktreespec.Info) (tools.Result, messages.TaskStarted) {
	label := oneLine(args.InitialMessage, 80)
	sup := ChildSupervision(parent, childID, taskID)
	text := fmt.Sprintf("Started private child %s; supervise it through task %s.", childID, taskID)
	rec := agentstate.ChildTaskRecord{ChildAgentID: childID, Summary: label, Prompt: args.InitialMessage,
		Trust: messages.TrustedSystem, WorkspaceMode: WorkspaceInherit}
	if wt != nil {
		sup.WorkspaceMode, sup.Worktree = WorkspaceWorktree, wt
		rec.WorkspaceMode, rec.Worktree = WorkspaceWorktree, wt
		text += fmt.Sprintf(" It works in the git worktree %s on branch %s, made from commit %s.", wt.ExecRoot(), wt.Branch, ShortCommit(wt.BaseCommit))
	}
	res := tools.Success(SpawnAgentToolName, text, SpawnResult{
		AgentID: childID, ChildAgentID: childID, SupervisionTaskID: taskID,
		TaskHandle:       &SpawnTaskHandle{TaskID: taskID, Kind: taskspec.KindChildAgent, WaitPolicy: "background", Summary: label},
		ChildSupervision: &sup,
	})
	record, _ := json.Marshal(rec) // plain strings and a worktree record: it encodes
	return res, messages.TaskStarted{TaskID: taskID, Kind: taskspec.KindChildAgent, Summary: label, Record: record}
}

// spawnPublic is SpawnAgent public_named: the new agent's first events
// (its creation, awake, the attached workspaces it inherits, and its
// bootstrap message when given), written by
// the agent (CreateIO).
func spawnPublic(st *agentstate.State, env agentstate.Env, args SpawnAgentArgs) Decision {
	events := agentstate.Batch{
		messages.AgentCreated{AgentID: args.AgentID, Kind: messages.AgentNamed, Visibility: messages.VisibilityPublic,
			Ownership: messages.OwnershipSelfOwned, ProfilePreset: PresetPublicNamed, ParentAgentID: env.AgentID},
		messages.AgentStateChanged{From: messages.StatusBooting, To: messages.StatusAwakeIdle, Reason: "created by agent " + env.AgentID},
	}
	events = append(events, agentstate.InheritedWorkspaces(st, env.AgentID)...) // the attached set, never the active entry
	if strings.TrimSpace(args.InitialMessage) != "" {
		msg := DelegationEnvelope(args.AgentID, env.NewID("msg"), env.Now, args.InitialMessage,
			map[string]string{"creator_agent_id": env.AgentID, "bootstrap": "true"})
		events = append(events, messages.MessageAdmitted{Envelope: msg})
	}
	id := args.AgentID
	return Decision{Create: &CreateIO{AgentID: id, Events: events, Finish: func(exists bool, err error) tools.Result {
		switch {
		case exists:
			return tools.Failure(SpawnAgentToolName, messages.ToolError, tools.ToolError{Kind: "agent_exists",
				Message:      fmt.Sprintf("agent %q already exists", id),
				RecoveryHint: "pick another agent_id, or talk to the existing agent through its operator"})
		case err != nil:
			return tools.Failure(SpawnAgentToolName, messages.ToolError, tools.ToolError{Kind: "spawn_failed",
				Message: fmt.Sprintf("agent %q could not be created: %v", id, err), Retryable: true,
				RecoveryHint: "retry in a moment"})
		}
		return tools.Success(SpawnAgentToolName, fmt.Sprintf("Created public agent %s.", id), SpawnResult{AgentID: id})
	}}}
}

// ShortCommit is a commit's abbreviated hash, as results show it.
func ShortCommit(c string) string { return c[:min(len(c), 12)] }

// oneLine is s on one line, cut to n bytes ("…" marks a cut).
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// DelegationEnvelope is a parent's (or creator's) message msgID to agent
// id: runtime-owned, so runtime instruction, never operator authority.
func DelegationEnvelope(id, msgID string, now time.Time, text string, refs map[string]string) messages.MessageEnvelope {
	env := messages.MessageEnvelope{
		ID: msgID, AgentID: id, CreatedAt: now, Kind: messages.KindInternalFollowup,
		Origin: messages.SystemOrigin("delegation"), Priority: messages.PriorityNormal, Body: messages.TextBody(text),
		SourceRefs: refs, DeliverySurface: messages.SurfaceRuntimeSystem, AdmissionContext: messages.AdmissionRuntimeOwned,
	}
	env.Normalize()
	env.AuthorityClass = messages.DeriveAuthority(env.Origin.Kind, env.DeliverySurface, env.AdmissionContext)
	return env
}
