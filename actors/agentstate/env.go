package agentstate

import (
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

// The agent's decisions (issue 15, step 4). A decision is a function of the
// agent's State and an Env: it reads no clock, mints no ID and touches no
// actor, store or runtime, so a table test runs it in microseconds. It
// returns a Batch of event payloads (and, for some, a result); the agent
// commits the Batch: it journals it atomically, applies it, then performs
// the effects it implies (arming the timers it schedules, dispatching the
// agent's own operator notifications).

// Env is everything a decision reads besides the agent's state.
type Env struct {
	// AgentID is the deciding agent.
	AgentID string
	// Now is the time of the decision (the agent's clock).
	Now time.Time
	// NewID mints a fresh ID with a prefix (messages.NewID in production).
	NewID func(prefix string) string
	// Cfg is the runtime configuration decisions read.
	Cfg Config
	// Plans gives a work item's plan artifact (a file the agent edits) for
	// the prompt's projection, as the agent last read it; nil, or nil from
	// it, when there is none. It never touches the file itself.
	Plans func(itemID string) *PlanArtifact
	// Ancestor is the ancestor whose spent token budget stops this agent
	// before its next model round; nil when none is over its budget.
	Ancestor *Ancestor
	// Tools is the catalog of tools the model may call (the prompt
	// frame's); nil offers none.
	Tools func() []llm.ToolSpec
	// Guidance is the agent's instruction files as its shell last read
	// them, for the prompt's instruction layers.
	Guidance Guidance
	// Approval is the approval mode of a tool for this agent (its
	// policy, then the tool's own hints); nil lets every call run.
	Approval func(tool string) messages.ApprovalMode
}

// Config is the part of the runtime's configuration decisions read.
type Config struct {
	// DefaultTokenBudget is the token budget of an agent that never had
	// one set; 0 means unlimited.
	DefaultTokenBudget uint64
	// LoopBreakerRepeats is how many identical tool calls with identical
	// results in a row end a turn; 0 means DefaultLoopBreakerRepeats,
	// negative disables the loop breaker.
	LoopBreakerRepeats int
	// NotificationFilter decides which system notifications reach the
	// model.
	NotificationFilter messages.NotificationFilter
	// SystemPrompt opens every prompt frame.
	SystemPrompt string
	// WorkItemReminder configures the stale work-item progress reminder.
	WorkItemReminder WorkItemReminder
	// Compaction configures conversation compaction.
	Compaction Compaction
	// Timers bounds the agent's created timers.
	Timers TimerLimits
	// MaxActiveChildren bounds the private children an agent supervises
	// at once; 0 means the default (runtimetools.DefaultMaxActiveChildren).
	MaxActiveChildren int
	// Memory says the agent has a memory index to search (its runtime
	// gives agents homes): only then does its prompt point at MemorySearch.
	Memory bool
}

// WorkItemReminder configures the stale-progress reminder: during a long
// provider turn, after Rounds consecutive model rounds without a
// successful work-item mutation, the next request (only) carries a
// reminder of the current work item, then again every CooldownRounds
// rounds; it is cut to MaxTokens (4 characters a token). Zero fields mean
// the defaults; a negative Rounds disables the reminder.
type WorkItemReminder struct {
	Rounds         int
	CooldownRounds int
	MaxTokens      int
}

// Ancestor is an ancestor whose spent token budget counts this agent's
// spend, with its own failure summary.
type Ancestor struct {
	ID, Summary string
}

// Batch is event payloads a decision wants journaled as one atomic append.
type Batch []messages.Payload

// Compaction configures conversation compaction. Zero fields mean the
// defaults; a negative TriggerTokens disables it.
type Compaction struct {
	TriggerTokens int // compact when the conversation is estimated above this
	KeepTokens    int // the newest exchanges that fit in this stay
	SummaryChars  int // bound of the summary of everything compacted
}

// Guidance is what the agent's shell read for the prompt's instruction
// layers: where the agent lives and works, and its instruction files.
type Guidance struct {
	// AgentHome is the agent's home; WorkspaceAnchor the root its
	// workspace guidance is read from ("" without a workspace).
	AgentHome, WorkspaceAnchor string
	// Agent and Workspace are the instruction files read; nil for none.
	Agent, Workspace *InstructionSource
	// Skills is the skills catalog the agent may see.
	Skills []SkillEntry
}

// TimerLimits bounds an agent's created timers.
type TimerLimits struct {
	// MaxPerAgent is how many timers an agent may have; 0 means
	// DefaultMaxTimers.
	MaxPerAgent int
	// MinInterval is the shortest interval of a recurring timer; 0 means
	// DefaultMinTimerInterval.
	MinInterval time.Duration
}

// PlanArtifact describes a work item's plan file: agents read, grep or
// edit Path directly when the preview is incomplete.
type PlanArtifact struct {
	Path            string    `json:"path"`
	Hash            string    `json:"hash"` // sha256:<hex>
	Bytes           int64     `json:"bytes"`
	UpdatedAt       time.Time `json:"updated_at"`
	Preview         string    `json:"preview"`
	PreviewComplete bool      `json:"preview_complete"`
}

// InstructionSource is an instruction file (AGENTS.md, or a workspace's
// CLAUDE.md when it has no AGENTS.md) as the agent's shell last read it
// for the prompt. Its JSON is metadata only: the content never leaves
// the prompt.
type InstructionSource struct {
	// Scope is ScopeAgent (from agent_home) or ScopeWorkspace (from the
	// workspace anchor).
	Scope string `json:"scope"`
	// Path is the file read; Kind its name (AGENTS.md or CLAUDE.md).
	Path string `json:"path"`
	Kind string `json:"kind"`
	// Bytes is the file's size; Truncated says the prompt carries only
	// its first part, with a marker saying so.
	Bytes     int64 `json:"bytes"`
	Truncated bool  `json:"truncated,omitempty"`
	// Text is what the prompt carries.
	Text string `json:"-"`
}

// SkillEntry is one skill of the catalog the shell discovered: its
// SKILL.md front matter and where it is (never its body).
type SkillEntry struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Scope       string `json:"scope"`
	Dir         string `json:"dir"`
	Path        string `json:"path"`
}
