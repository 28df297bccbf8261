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
