package agentstate

import (
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// AgentInfo is the list-sized identity and status of an agent: what an
// agent list or an activity summary needs, without the conversation.
type AgentInfo struct {
	ID            string               `json:"agent_id"`
	Kind          messages.AgentKind   `json:"kind,omitempty"`
	Visibility    messages.Visibility  `json:"visibility,omitempty"`
	Ownership     messages.Ownership   `json:"ownership,omitempty"`
	ProfilePreset string               `json:"profile_preset,omitempty"`
	ParentAgentID string               `json:"parent_agent_id,omitempty"`
	ExecutionRoot string               `json:"execution_root,omitempty"` // set for a worktree-mode child
	Status        messages.AgentStatus `json:"status"`
	LastSeq       uint64               `json:"last_event_seq"`
	Queued        int                  `json:"queued"`
	TurnInFlight  bool                 `json:"turn_in_flight"`
	LastError     string               `json:"last_error,omitempty"`
	// LastErrorAt and LastErrorResolvedAt: see AgentState.
	LastErrorAt         *time.Time `json:"last_error_at,omitempty"`
	LastErrorResolvedAt *time.Time `json:"last_error_resolved_at,omitempty"`
	Model               string     `json:"model,omitempty"` // the override; "" is the default
	// OpenSuspensions are the ids of questions waiting for the operator.
	OpenSuspensions []string `json:"open_suspensions,omitempty"`
	// ActiveChildren are the ids of the private children it supervises
	// through running tasks (inspect them with `agents status <id>`).
	ActiveChildren []string `json:"active_children,omitempty"`
	// RunningTasks counts its background tasks still running (commands and
	// supervised children) whose results it waits for.
	RunningTasks int `json:"running_tasks,omitempty"`
	// Active is true when the agent's actor is running; a dormant agent's
	// info comes from its snapshot.
	Active bool `json:"active"`
	// TokenBudget is the agent's token limit and spend (budget.go).
	TokenBudget TokenBudgetInfo `json:"token_budget"`
	// ModelRetry is the turn's model retry waiting on its timer, if any
	// (model_retry.go).
	ModelRetry *ModelRetryInfo `json:"model_retry,omitempty"`
	// NextTimerFires are the next fires of the agent's created timers,
	// the soonest first, at most three (timers.go).
	NextTimerFires []TimerFireInfo `json:"next_timer_fires,omitempty"`
	// JournalQuarantined is true when the store quarantined the agent's
	// journal: it is not resumed and LastError says why.
	JournalQuarantined bool `json:"journal_quarantined,omitempty"`
	// Workspace is its active workspace when it is not its home (agents
	// workspace use); nil: it works in its home.
	Workspace *ActiveWorkspaceView `json:"workspace,omitempty"`
	// LoadedAgentsMD are the instruction files its last prompt carried:
	// path, kind and size only, never their content.
	LoadedAgentsMD []InstructionSource `json:"loaded_agents_md,omitempty"`
	// MCP is its own choice of MCP servers (agents create --mcp); nil:
	// config.json mcp_agents decides.
	MCP *messages.MCPSelection `json:"mcp,omitempty"`
}

// Info is the list-sized projection of s (Active is left false: the
// caller knows whether the agent's actor runs).
func (s *State) Info() AgentInfo {
	return AgentInfo{ID: s.ID, Kind: s.Kind, Visibility: s.Visibility, Ownership: s.Ownership,
		ProfilePreset: s.ProfilePreset, ParentAgentID: s.ParentAgentID, ExecutionRoot: s.ExecutionRoot, Status: s.Status, LastSeq: s.LastSeq,
		Queued: s.Queue.Len(), TurnInFlight: s.Turn != nil, LastError: s.LastError, LastErrorAt: s.LastErrorAt, LastErrorResolvedAt: s.LastErrorResolvedAt, Model: s.Model,
		OpenSuspensions: s.openSuspensionIDs(), ActiveChildren: s.ChildIDs(), RunningTasks: len(s.OpenTasks()), TokenBudget: s.BudgetInfo(),
		ModelRetry: s.modelRetryInfo(), NextTimerFires: nextTimerFires(s, 3),
		Workspace: s.activeWorkspaceInfo(), MCP: s.MCP}
}

// activeWorkspaceInfo is the active workspace's view; nil for the home.
func (s *State) activeWorkspaceInfo() *ActiveWorkspaceView {
	if s.ActiveWorkspace == nil {
		return nil
	}
	v := Workspaces(s, "").Active
	return &v
}
