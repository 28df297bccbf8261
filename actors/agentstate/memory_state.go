package agentstate

import "github.com/holon-actors/holon-actors/messages"

// MemoryState is the agent's working memory and its episode builder
// (working_memory.go, episodes.go), all derived from the journal: the
// memory is set from working_memory_updated events, the builder merges
// each terminal turn's TurnMemoryDelta and is closed by episode_finalized.
type MemoryState struct {
	// Current is the working memory of revision Revision.
	Current  messages.WorkingMemory `json:"current,omitzero"`
	Revision uint64                 `json:"revision,omitempty"`
	// PendingDelta is what changed since the revision a prompt last
	// carried (LastPromptedRevision), bounded; the next model-visible
	// turn takes it.
	PendingDelta         []string `json:"pending_delta,omitempty"`
	LastPromptedRevision uint64   `json:"last_prompted_revision,omitempty"`
	// Episode is the open episode builder, nil when none is open.
	Episode *EpisodeBuilder `json:"episode,omitempty"`
	// ArchivedEpisodes counts the episodes finalized.
	ArchivedEpisodes uint64 `json:"archived_episodes,omitempty"`
	// WindowEpisodes are the finalized episodes whose messages are still
	// (partly) in the conversation, oldest first, bounded
	// (episode_window.go): compaction's digest names those it covers.
	WindowEpisodes []EpisodeRef `json:"window_episodes,omitempty"`
	// LastTools are the tool outcomes of the last model-visible turn.
	LastTools []string `json:"last_tools,omitempty"`
}

// EpisodeBuilder accumulates the turns of the episode being built.
type EpisodeBuilder struct {
	WorkspaceID  string   `json:"workspace_id,omitempty"`
	WorkItemID   string   `json:"work_item_id,omitempty"`
	Objective    string   `json:"objective,omitempty"`
	FirstTurn    uint64   `json:"first_turn"`
	LastTurn     uint64   `json:"last_turn"`
	FirstMessage uint64   `json:"first_message"`
	LastMessage  uint64   `json:"last_message"`
	Turns        int      `json:"turns"`
	Files        []string `json:"files,omitempty"`
	Commands     []string `json:"commands,omitempty"`
	Verification []string `json:"verification,omitempty"`
	Decisions    []string `json:"decisions,omitempty"`
	// Results are the turns' result and failure briefs, each bounded.
	Results []string `json:"results,omitempty"`
	// Checkpoint is set when a work item completed during the episode.
	Checkpoint bool `json:"checkpoint,omitempty"`
}

// TurnMemoryDelta is the memory evidence of one model-visible turn in
// flight: where its conversation started, the files it touched, the
// commands it ran, what verified, what it decided, and its tools'
// outcomes. The turn's terminal merges it into the episode builder.
type TurnMemoryDelta struct {
	FirstMessage uint64   `json:"first_message"`
	Files        []string `json:"files,omitempty"`
	Commands     []string `json:"commands,omitempty"`
	Verification []string `json:"verification,omitempty"`
	Decisions    []string `json:"decisions,omitempty"`
	Tools        []string `json:"tools,omitempty"`
	// Prompted is the working-memory delta the turn's prompt carries.
	Prompted []string `json:"prompted,omitempty"`
	// Calls maps the turn's commands (by call id) to their command line
	// until their results say whether they passed.
	Calls map[string]string `json:"calls,omitempty"`
}
