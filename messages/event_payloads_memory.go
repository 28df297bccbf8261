package messages

import "time"

// WorkingMemory is an agent's structured working state, derived at a turn
// boundary from its work items, plans, briefs, tool and waiting evidence
// (agentstate derives it; the same state always derives the same memory).
// Lists are bounded and ordered, so two derivations compare equal.
type WorkingMemory struct {
	// WorkspaceID is the active workspace ("" or AgentHomeWorkspace: the
	// agent's home).
	WorkspaceID string `json:"workspace_id,omitempty"`
	// WorkItemID, Objective and PlanStatus name the current work item.
	WorkItemID string `json:"work_item_id,omitempty"`
	Objective  string `json:"objective,omitempty"`
	PlanStatus string `json:"plan_status,omitempty"`
	// Todo is the current item's checklist, one "[state] text" a line.
	Todo []string `json:"todo,omitempty"`
	// OtherWork is the other open work, one "id (queued|blocked: why):
	// objective" a line.
	OtherWork []string `json:"other_work,omitempty"`
	// LastResult is the latest result or failure brief, bounded.
	LastResult string `json:"last_result,omitempty"`
	// RecentTools are the last turn's tool outcomes, one "tool status" a
	// line.
	RecentTools []string `json:"recent_tools,omitempty"`
	// Waiting is what the agent waits on ("" for nothing).
	Waiting string `json:"waiting,omitempty"`
	// RunningTasks are its background tasks still running, "id: summary".
	RunningTasks []string `json:"running_tasks,omitempty"`
}

// WorkingMemoryUpdated records a new revision of the agent's working
// memory at a turn boundary: the whole memory and the prompt-facing delta
// since the previous revision. Replay sets the memory from it, never
// re-derives it.
type WorkingMemoryUpdated struct {
	Revision  uint64        `json:"revision"`
	TurnIndex uint64        `json:"turn_index"`
	Memory    WorkingMemory `json:"memory"`
	// Delta is what changed, one line each ("objective: …", "- todo …").
	Delta []string `json:"delta,omitempty"`
}

// Episode is one immutable chunk of an agent's past work, finalized at a
// semantic boundary: the turns and conversation messages it covers, the
// work it was about, what it touched, ran, verified and decided, what it
// carries forward and waits on, and one bounded summary.
type Episode struct {
	ID          string `json:"id"`
	AgentID     string `json:"agent_id"`
	WorkspaceID string `json:"workspace_id,omitempty"`
	WorkItemID  string `json:"work_item_id,omitempty"`
	Objective   string `json:"objective,omitempty"`
	// FirstTurn..LastTurn are the turn indexes covered; FirstMessage..
	// LastMessage the conversation message counts (compacted included).
	FirstTurn    uint64   `json:"first_turn"`
	LastTurn     uint64   `json:"last_turn"`
	FirstMessage uint64   `json:"first_message"`
	LastMessage  uint64   `json:"last_message"`
	Files        []string `json:"files,omitempty"`
	Commands     []string `json:"commands,omitempty"`
	Verification []string `json:"verification,omitempty"`
	Decisions    []string `json:"decisions,omitempty"`
	CarryForward []string `json:"carry_forward,omitempty"`
	Waiting      string   `json:"waiting,omitempty"`
	// Boundary is why it was finalized: work_switch, result_checkpoint,
	// waiting or hard_cap.
	Boundary  string    `json:"boundary"`
	Summary   string    `json:"summary"`
	CreatedAt time.Time `json:"created_at"`
}

// EpisodeFinalized records an episode the agent's episode builder closed.
type EpisodeFinalized struct {
	Episode Episode `json:"episode"`
}

func (WorkingMemoryUpdated) EventType() EventType { return EventWorkingMemoryUpdated }
func (EpisodeFinalized) EventType() EventType     { return EventEpisodeFinalized }
