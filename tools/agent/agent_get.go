package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/task"
)

// AgentGetName is the model-facing name of the tool.
const AgentGetName = "AgentGet"

// Errors an Inspector returns.
var (
	// ErrUnknownAgent is returned for an agent id the runtime does not know.
	ErrUnknownAgent = errors.New("agent: unknown agent")
	// ErrNotVisible is returned for an agent the caller may not inspect,
	// such as another agent's private child.
	ErrNotVisible = errors.New("agent: agent not visible to the caller")
)

// KindUnknownAgent is the error kind for both errors: a private agent's
// existence is not revealed.
const KindUnknownAgent = "unknown_agent"

// Identity is who an agent is, in the ownership and profile vocabulary.
type Identity struct {
	AgentID              string              `json:"agent_id"`
	Kind                 messages.AgentKind  `json:"kind"`
	Visibility           messages.Visibility `json:"visibility"`
	Ownership            messages.Ownership  `json:"ownership"`
	ProfilePreset        string              `json:"profile_preset"`
	LineageParentAgentID string              `json:"lineage_parent_agent_id,omitempty"`
}

// Workspace is the agent's active workspace binding.
type Workspace struct {
	WorkspaceID     string `json:"workspace_id"`
	WorkspaceAnchor string `json:"workspace_anchor,omitempty"`
	ExecutionRoot   string `json:"execution_root"`
	Cwd             string `json:"cwd,omitempty"`
}

// Child is the compact observability snapshot of a supervised child.
type Child struct {
	ChildAgentID      string `json:"child_agent_id"`
	SupervisionTaskID string `json:"supervision_task_id,omitempty"`
	Phase             string `json:"phase"` // running, blocked, waiting, terminal
	BlockedReason     string `json:"blocked_reason,omitempty"`
	ActiveWorkItemID  string `json:"active_work_item_id,omitempty"`
	WaitingReason     string `json:"waiting_reason,omitempty"`
	WorkSummary       string `json:"work_summary,omitempty"`
	LastProgressBrief string `json:"last_progress_brief,omitempty"`
	LastResultBrief   string `json:"last_result_brief,omitempty"`
}

// Summary is the agent summary AgentGet returns.
type Summary struct {
	Identity         Identity             `json:"identity"`
	Status           messages.AgentStatus `json:"status"`
	QueuedMessages   int                  `json:"queued_messages"`
	TurnInFlight     bool                 `json:"turn_in_flight"`
	ActiveWorkItemID string               `json:"active_work_item_id,omitempty"`
	WorkSummary      string               `json:"work_summary,omitempty"`
	WaitingReason    string               `json:"waiting_reason,omitempty"`
	Workspace        *Workspace           `json:"workspace,omitempty"`
	ActiveTasks      []task.Snapshot      `json:"active_tasks,omitempty"`
	ActiveChildren   []Child              `json:"active_children,omitempty"`
	LastError        string               `json:"last_error,omitempty"`
	// LoadedAgentsMD are the instruction files the agent's last prompt
	// carried: source metadata only, never their content.
	LoadedAgentsMD []InstructionSource `json:"loaded_agents_md,omitempty"`
}

// InstructionSource is an AGENTS.md (or a workspace's CLAUDE.md) a
// prompt carried.
type InstructionSource struct {
	Scope     string `json:"scope"` // agent or workspace
	Path      string `json:"path"`
	Kind      string `json:"kind"` // AGENTS.md or CLAUDE.md
	Bytes     int64  `json:"bytes"`
	Truncated bool   `json:"truncated,omitempty"`
}

// GetResult is the canonical result of AgentGet.
type GetResult struct {
	Agent Summary `json:"agent"`
}

// Inspector returns agent summaries for the calling agent: its own when
// agentID is empty. Implementations are safe for concurrent use.
type Inspector interface {
	AgentGet(ctx context.Context, agentID string) (Summary, error)
}

type inspectorKey struct{}

// WithInspector binds the calling agent's Inspector to ctx.
func WithInspector(ctx context.Context, in Inspector) context.Context {
	return context.WithValue(ctx, inspectorKey{}, in)
}

// GetArgs are the arguments of AgentGet.
type GetArgs struct {
	AgentID string `json:"agent_id,omitempty" jsonschema:"the agent to inspect; default yourself"`
}

// AgentGet is the AgentGet tool. in serves calls whose context has no
// Inspector bound; it may be nil when the runtime always binds one.
func AgentGet(in Inspector) tools.Tool {
	return tools.Typed(AgentGetName,
		"Inspect an agent (yourself by default): identity, visibility, ownership, profile, lineage, status, work focus, "+
			"active tasks and children. It shows no transcript; use TaskStatus for a single task.",
		func(ctx context.Context, a GetArgs) tools.Result {
			in := in
			if bound, ok := ctx.Value(inspectorKey{}).(Inspector); ok && bound != nil {
				in = bound
			}
			if in == nil {
				return tools.Failure(AgentGetName, messages.ToolError, tools.ToolError{
					Kind: "runtime_misconfigured", Message: "AgentGet has no inspector",
					RecoveryHint: "this is a runtime problem, not a problem with the call; tell the operator",
				})
			}
			s, err := in.AgentGet(ctx, a.AgentID)
			switch {
			case errors.Is(err, ErrUnknownAgent) || errors.Is(err, ErrNotVisible):
				return tools.Failure(AgentGetName, messages.ToolError, tools.ToolError{
					Kind: KindUnknownAgent, Message: fmt.Sprintf("there is no agent %q visible to you", a.AgentID),
					Details:      mustJSON(map[string]string{"field": "agent_id", "agent_id": a.AgentID}),
					RecoveryHint: "omit agent_id to inspect yourself, or use an id from your task handles or spawn results",
				})
			case err != nil:
				return tools.Failure(AgentGetName, messages.ToolError, tools.ToolError{
					Kind: "agent_unavailable", Message: "AgentGet failed: " + err.Error(), Retryable: true,
					RecoveryHint: "retry in a moment",
				})
			}
			summary := fmt.Sprintf("agent %s is %s", s.Identity.AgentID, s.Status)
			return tools.Build(tools.SuccessEnvelope(AgentGetName, summary, GetResult{Agent: s}), Receipt)
		})
}

// Receipt renders the agent summary as compact text.
var Receipt tools.Renderer = tools.RenderFunc(func(env tools.Envelope) string {
	var r GetResult
	if json.Unmarshal(env.Result, &r) != nil {
		return env.SummaryText
	}
	s, id := r.Agent, r.Agent.Identity
	var b strings.Builder
	fmt.Fprintf(&b, "Agent %s: %s\n", id.AgentID, s.Status)
	fmt.Fprintf(&b, "Identity: kind %s, %s, %s, profile %s\n", id.Kind, id.Visibility, id.Ownership, id.ProfilePreset)
	if id.LineageParentAgentID != "" {
		fmt.Fprintf(&b, "Lineage parent: %s\n", id.LineageParentAgentID)
	}
	fmt.Fprintf(&b, "Queued messages: %d; turn in flight: %s\n", s.QueuedMessages, yesNo(s.TurnInFlight))
	if s.WorkSummary != "" || s.ActiveWorkItemID != "" {
		fmt.Fprintf(&b, "Work: %s %s\n", s.ActiveWorkItemID, s.WorkSummary)
	}
	if s.WaitingReason != "" {
		fmt.Fprintf(&b, "Waiting: %s\n", s.WaitingReason)
	}
	if w := s.Workspace; w != nil {
		fmt.Fprintf(&b, "Workspace: %s at %s\n", w.WorkspaceID, w.ExecutionRoot)
	}
	if len(s.ActiveTasks) > 0 {
		b.WriteString("Active tasks:\n")
		for _, t := range s.ActiveTasks {
			fmt.Fprintf(&b, "  %s  %s  %s  %s\n", t.TaskID, t.Status, t.Kind, t.Summary)
		}
	}
	if len(s.ActiveChildren) > 0 {
		b.WriteString("Active children:\n")
		for _, c := range s.ActiveChildren {
			fmt.Fprintf(&b, "  %s  %s  task %s  %s\n", c.ChildAgentID, c.Phase, c.SupervisionTaskID, c.WorkSummary)
		}
	}
	if s.LastError != "" {
		fmt.Fprintf(&b, "Last error: %s\n", s.LastError)
	}
	return strings.TrimRight(b.String(), "\n")
})

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("agent: details do not marshal: %v", err)) // programmer error
	}
	return b
}
