package agentstate

import (
	"encoding/json"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/worktree/worktreespec"

	"github.com/holon-actors/holon-actors/tools/exec/execspec"
	"github.com/holon-actors/holon-actors/tools/task/taskspec"

	"github.com/holon-actors/holon-actors/providers/llm"
)

// AgentState is everything an agent knows, rebuilt from its journal. It
// changes only through apply, with events that are already durable, so the
// state after a live run, after replaying the journal, and after loading a
// Snapshot and replaying its tail are the same. It is JSON so that it can be
// a snapshot.
type State struct {
	ID            string              `json:"id"`
	Kind          messages.AgentKind  `json:"kind,omitempty"`
	Visibility    messages.Visibility `json:"visibility,omitempty"`
	Ownership     messages.Ownership  `json:"ownership,omitempty"`
	ProfilePreset string              `json:"profile_preset,omitempty"`
	ParentAgentID string              `json:"parent_agent_id,omitempty"`
	// ExecutionRoot overrides where its tools run (a worktree-mode
	// child's worktree); "" is the runtime's workspace or its home.
	ExecutionRoot string `json:"execution_root,omitempty"`
	// Activation is the agent's latest activation in a cluster, where it
	// runs (activation.go); nil on a single node.
	Activation *messages.AgentActivated `json:"activation,omitempty"`
	// Workspaces is the agent's attached workspace set, in the order
	// attached; ActiveWorkspace its active entry, nil for its home
	// (workspaces.go).
	Workspaces      []messages.WorkspaceAttached `json:"workspaces,omitempty"`
	ActiveWorkspace *messages.WorkspaceUsed      `json:"active_workspace,omitempty"`
	// Skills are its activated skills by SKILL.md path: turn-active
	// during the turn that activated them, session-active once a turn
	// completed (skills.go).
	Skills map[string]*ActiveSkill `json:"skills,omitempty"`

	Status messages.AgentStatus `json:"status"`
	// Model is the operator's model override for this agent's turns; ""
	// means the runtime's default model.
	Model string `json:"model,omitempty"`
	// CommandPolicy is the operator's command policy for this agent
	// (agents create --policy); nil means the runtime's configured one.
	CommandPolicy *messages.CommandPolicy `json:"command_policy,omitempty"`
	// MCP is the operator's choice of MCP servers for this agent (agents
	// create --mcp); nil means config.json mcp_agents decides.
	MCP *messages.MCPSelection `json:"mcp,omitempty"`
	// LastSeq is the event_seq of the last applied event.
	LastSeq uint64 `json:"last_seq"`

	// Queue holds admitted messages not yet started, by band.
	Queue Queue `json:"queue"`
	// Recent remembers the ids of recently admitted messages so a repeated
	// delivery of the same envelope is acknowledged, not admitted twice.
	Recent []string `json:"recent,omitempty"`
	// RecentSeqs are the event_seqs of the newest len(RecentSeqs) entries
	// of Recent, their message_admitted events (shorter than Recent only
	// in a state restored from a snapshot older than this field).
	RecentSeqs []uint64 `json:"recent_seqs,omitempty"`

	// Turn is the turn in flight, nil between turns.
	Turn      *TurnState `json:"turn,omitempty"`
	TurnIndex uint64     `json:"turn_index"`
	// Conversation is the replayable conversation the model sees.
	Conversation []llm.Item `json:"conversation,omitempty"`
	// answered counts the first items of Conversation known to leave no
	// call unanswered (noteAnswered); not kept in snapshots: a restored
	// state looks at its whole conversation once.
	answered int
	// conv keeps the conversation's token estimate and the array a model
	// request shows it from (conversation_view.go); not in snapshots.
	conv convCache
	// ContextSummary is the digest of the compacted conversation (shown
	// first); CompactedItems counts the items compacted (compaction.go).
	ContextSummary  string `json:"context_summary,omitempty"`
	CompactedItems  uint64 `json:"compacted_items,omitempty"`
	CompactedRounds int    `json:"compacted_rounds,omitempty"` // assistant rounds among them
	// LastClosure is the closure of the last settled turn.
	LastClosure *messages.Closure `json:"last_closure,omitempty"`

	TotalInputTokens  uint64 `json:"total_input_tokens"`
	TotalOutputTokens uint64 `json:"total_output_tokens"`
	TotalModelRounds  uint64 `json:"total_model_rounds"`

	LastBriefAt *time.Time `json:"last_brief_at,omitempty"`
	// LastProgressBrief and LastResultBrief are the latest ack brief and
	// the latest result or failure brief, bounded: a supervising parent's
	// view of its child.
	LastProgressBrief string `json:"last_progress_brief,omitempty"`
	LastResultBrief   string `json:"last_result_brief,omitempty"`
	LastError         string `json:"last_error,omitempty"`
	// LastErrorAt is when LastError happened (nil in states from snapshots
	// older than the field); LastErrorResolvedAt is when a later turn
	// completed without a failure, nil while the error stands.
	LastErrorAt         *time.Time `json:"last_error_at,omitempty"`
	LastErrorResolvedAt *time.Time `json:"last_error_resolved_at,omitempty"`

	// Timers are the agent's pending timers by id; a fire removes one, so
	// each fire is applied once.
	Timers map[string]TimerState `json:"timers,omitempty"`
	// UserTimers are the timers the agent or its operator created, by id
	// (timers.go): one-shot and recurring, each with its next due time.
	UserTimers map[string]*UserTimer `json:"user_timers,omitempty"`
	// Sleep records when and why the agent last went to sleep and what
	// wake it expects.
	Sleep *SleepRecord `json:"sleep,omitempty"`
	// PendingWakeHint holds wake hints that arrived while the agent was
	// busy, coalesced, until it can take them as one SystemTick.
	PendingWakeHint *WakeHint `json:"pending_wake_hint,omitempty"`
	// Tasks are the agent's background tasks by id (see TaskRecord): a
	// running one is an open fact, a terminal one answers TaskOutput.
	Tasks map[string]*TaskRecord `json:"tasks,omitempty"`

	// Suspensions are the agent's questions to its operator by id: the
	// open one (at most one) and recently settled ones.
	Suspensions map[string]*messages.SuspensionRecord `json:"suspensions,omitempty"`
	// Notifications are the latest operator notifications recorded by or
	// for the agent, oldest first, with their delivery status.
	Notifications []NotificationView `json:"notifications,omitempty"`
	// PendingNotifications are system notifications queued for the model
	// and not yet carried to it.
	PendingNotifications []messages.SystemNotification `json:"pending_notifications,omitempty"`

	// Budget is the agent's token budget and spend (budget.go).
	Budget TokenBudgetState `json:"budget,omitzero"`
	// Watchdog remembers the impossible wait last reported (watchdog.go).
	Watchdog WatchdogState `json:"watchdog,omitzero"`
	// WorkQueueState is the durable work queue (work_items.go).
	WorkQueueState
	// Memory is the working memory and episode builder (memory_state.go).
	Memory MemoryState `json:"memory,omitzero"`
}

// TimerState is one pending timer.
type TimerState struct {
	DueAt  time.Time `json:"due_at"`
	Reason string    `json:"reason"`
	// SuspensionID marks a suspension's attempt deadline.
	SuspensionID string `json:"suspension_id,omitempty"`
	// Purpose and WorkItemID mark a work item's timer (work_queue.go).
	Purpose    messages.TimerPurpose `json:"purpose,omitempty"`
	WorkItemID string                `json:"work_item_id,omitempty"`
	// ModelRetry marks the timer a turn's model retry waits on
	// (model_retry.go).
	ModelRetry bool `json:"model_retry,omitempty"`
}

// SleepRecord is the last sleep of the agent.
type SleepRecord struct {
	At           time.Time            `json:"at"`
	Reason       string               `json:"reason"`
	ExpectedWake messages.TriggerKind `json:"expected_wake"`
	Until        *time.Time           `json:"until,omitempty"`
}

// WakeHint is the coalesced pending wake hint.
type WakeHint struct {
	Source     string `json:"source"`
	Reason     string `json:"reason"`
	Contentful bool   `json:"contentful"`
	Count      int    `json:"count"`
}

// SleepState is a successful Sleep call of the turn's last round: the turn
// ends after the batch with the agent asleep. DurationMS 0 rests until
// another wake signal; a positive value asks for a timed wake after it.
type SleepState struct {
	DurationMS int64  `json:"duration_ms,omitempty"`
	Reason     string `json:"reason,omitempty"`
}

// AskState is a successful RequestOperatorInput call of the turn's last
// round: the turn ends after the batch with the agent suspended on this
// question (suspensions.go turns it into a SuspensionRecord).
type AskState struct {
	Question       string            `json:"question"`
	ResponseType   string            `json:"response_type,omitempty"`
	Choices        []AskChoice       `json:"choices,omitempty"`
	Context        map[string]string `json:"context,omitempty"`
	ChannelHint    string            `json:"channel_hint,omitempty"`
	TimeoutSeconds int64             `json:"timeout_seconds,omitempty"`
	FallbackPolicy string            `json:"fallback_policy,omitempty"`
	FallbackValue  string            `json:"fallback_value,omitempty"`
	Confidence     *float64          `json:"confidence,omitempty"`
	Risk           *float64          `json:"risk,omitempty"`
	Reversibility  *float64          `json:"reversibility,omitempty"`
	RetryPolicy    *AskRetry         `json:"retry_policy,omitempty"`
}

// AskChoice is one option of an AskState.
type AskChoice struct {
	Value       string `json:"value"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	Style       string `json:"style,omitempty"`
}

// AskRetry re-notifies the operator before the final fallback.
type AskRetry struct {
	IntervalSeconds     int64  `json:"interval_seconds"`
	MaxAttempts         int    `json:"max_attempts"`
	FinalFallbackPolicy string `json:"final_fallback_policy,omitempty"`
}

// WorkQueueState is the work-item part of AgentState: the durable work
// queue that drives continuation. It changes only through apply.
type WorkQueueState struct {
	// WorkItems are the agent's work items by id, open and completed.
	WorkItems map[string]*messages.WorkItemRecord `json:"work_items,omitempty"`
	// CurrentWorkItemID is the selected open work item, "" for none.
	CurrentWorkItemID string `json:"current_work_item_id,omitempty"`
	// DeliverySummaries are the latest completion reports, oldest first.
	DeliverySummaries []messages.DeliverySummaryRecord `json:"delivery_summaries,omitempty"`
	// WorkTick is the activation tick being processed, to judge whether
	// its turn made progress.
	WorkTick *WorkTick `json:"work_tick,omitempty"`
	// WorkBackoff holds, by work item id, the backoff of items whose last
	// activations made no progress.
	WorkBackoff map[string]WorkBackoff `json:"work_backoff,omitempty"`
	// WorkTrace is, by open work item id, the recent process trace of the
	// turns bound to it (assistant text and tool results, one bounded line
	// each, oldest first), for the prompt projection.
	WorkTrace map[string][]string `json:"work_trace,omitempty"`
}

// WorkTick is a work-queue SystemTick whose turn is running.
type WorkTick struct {
	MessageID  string `json:"message_id"`
	WorkItemID string `json:"work_item_id"`
	// Progress is set by a successful work-item mutation or a successful
	// tool call of substance during the tick's turn.
	Progress bool `json:"progress"`
}

// WorkBackoff is the no-progress streak of one work item's activations
// and when the last of them ended.
type WorkBackoff struct {
	Streak int       `json:"streak"`
	Since  time.Time `json:"since"`
}

// TurnWork is the work-item part of a turn in flight.
type TurnWork struct {
	// BoundItemID is the open work item the turn was bound to when it
	// started; the turn-end commit applies to it only.
	BoundItemID string `json:"bound_item_id,omitempty"`
	// LastMutationRound is the round of the turn's latest successful
	// work-item mutation (0: none yet).
	LastMutationRound uint32 `json:"last_mutation_round,omitempty"`
}

// TokenBudgetState is an agent's token budget and what counts against it,
// all derived from the journal.
type TokenBudgetState struct {
	// Set is true once an operator set a budget (even 0, unlimited): the
	// runtime's default no longer applies to the agent.
	Set         bool   `json:"set,omitempty"`
	LimitTokens uint64 `json:"limit_tokens,omitempty"`
	// SpendBase is the lifetime total at the last reset of the spend.
	SpendBase uint64 `json:"spend_base,omitempty"`
	// ChildTokens is each direct private child's last reported lifetime
	// total (its own rounds and its descendants').
	ChildTokens map[string]uint64 `json:"child_tokens,omitempty"`
	// DescendantTokens is the sum of ChildTokens.
	DescendantTokens uint64 `json:"descendant_tokens,omitempty"`
	// Warned is true once the spend passed BudgetWarnPercent of the limit
	// and the operator was told; a new budget (token_budget_set) clears it.
	Warned bool `json:"warned,omitempty"`
}

// ModelRetryState is a turn's run of durable model retries: how many
// rounds failed, since when, the last failure, and the timer the next try
// waits on ("" once it fired: the round is being tried again).
type ModelRetryState struct {
	Attempt       int              `json:"attempt"`
	FirstFailedAt time.Time        `json:"first_failed_at"`
	DueAt         time.Time        `json:"due_at"`
	TimerID       string           `json:"timer_id,omitempty"`
	Failure       messages.Failure `json:"failure"`
}

// NotificationView is an operator notification with where its external
// delivery stands (nil when no webhook is configured).
type NotificationView struct {
	messages.OperatorNotification
	Delivery *NotificationDelivery `json:"delivery,omitempty"`
}

// NotificationDelivery is the latest delivery record of a notification.
type NotificationDelivery struct {
	Status     messages.DeliveryStatus `json:"status"`
	Attempts   int                     `json:"attempts"`
	HTTPStatus int                     `json:"http_status,omitempty"`
	Error      string                  `json:"error,omitempty"`
	UpdatedAt  string                  `json:"updated_at"`
}

// TaskRecord is the durable record of one background task of an agent,
// rebuilt from its task_started and task_finished events. It is the
// authority for the task's terminal state: once Status is terminal, a
// stale "running" answer from anywhere else is ignored.
type TaskRecord struct {
	TaskID  string `json:"task_id"`
	Kind    string `json:"kind"`
	Summary string `json:"summary,omitempty"`
	// ParentMessageID is the message whose turn started the task.
	ParentMessageID string    `json:"parent_message_id,omitempty"`
	Status          string    `json:"status"` // running, then completed, failed, cancelled or interrupted
	CreatedAt       time.Time `json:"created_at"`
	UpdatedAt       time.Time `json:"updated_at"`
	// Command is the command_task's record: identity, process group and
	// token (for orphan recovery) and output files.
	Command *taskspec.CommandRecord `json:"command,omitempty"`
	// Child is the child_agent_task's record: the child and its recovery
	// spec.
	Child      *ChildTaskRecord `json:"child,omitempty"`
	ExitStatus *int             `json:"exit_status,omitempty"`
	// Result is the terminal task result (taskspec.OutputTask) as journaled.
	Result json.RawMessage `json:"result,omitempty"`
}

// Queue is four FIFO bands of admitted envelopes; Next returns the first
// envelope of the most urgent non-empty band.
type Queue struct {
	Bands [4][]messages.MessageEnvelope `json:"bands"`
}

// LaunchRecord is a command a tool call of the turn in flight launched:
// journaled (command_launched) before the command could run, dropped
// when the call's tool_executed is. A call cut by a crash with launches
// is settled from them (settleLaunches) instead of being reported
// "outcome unknown".
type LaunchRecord struct {
	CallID string          `json:"call_id"`
	Launch execspec.Launch `json:"launch"`
}

// LoopState counts identical tool calls with identical results in a row
// within a turn.
type LoopState struct {
	// Key identifies the call and its result: tool, canonical arguments,
	// status and receipt.
	Key     string `json:"key,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Repeats int    `json:"repeats,omitempty"`
}

// TurnState is the durable progress of the turn in flight: enough to resume
// it from its last durable step after a crash.
type TurnState struct {
	ID        string    `json:"id"`
	MessageID string    `json:"message_id"`
	Index     uint64    `json:"index"`
	StartedAt time.Time `json:"started_at"`
	// Round is the number of model rounds recorded so far.
	Round uint32 `json:"round"`
	// Calls are the tool calls of the last assistant round, in order.
	Calls []messages.ToolCall `json:"calls,omitempty"`
	// Started holds calls whose tool_call_started is durable.
	Started []string `json:"started,omitempty"`
	// Done holds calls whose tool_executed is durable.
	Done []string `json:"done,omitempty"`
	// LastText is the text of the last assistant round.
	LastText string `json:"last_text"`
	// Sleep is set when a Sleep call of this round succeeded: the turn
	// ends after the batch and the agent goes to sleep.
	Sleep *SleepState `json:"sleep,omitempty"`
	// Ask is set when a RequestOperatorInput call of this round succeeded:
	// the turn ends after the batch with the agent suspended.
	Ask       *AskState `json:"ask,omitempty"`
	AskCallID string    `json:"ask_call_id,omitempty"`
	// AwaitingModel is true after a message or tool batch was recorded and
	// before the model's next reply is.
	AwaitingModel bool `json:"awaiting_model"`
	// Loop counts identical tool calls in a row (loop_breaker.go).
	Loop LoopState `json:"loop,omitzero"`
	// Work is the turn's work-item binding and progress (work_items.go).
	Work *TurnWork `json:"work,omitempty"`
	// Retry is the turn's run of model retries after retryable failures
	// (model_retry.go); a completed round ends it.
	Retry *ModelRetryState `json:"retry,omitempty"`
	// Launches are the commands launched by calls whose result is not
	// durable yet (command_launch.go).
	Launches []LaunchRecord `json:"launches,omitempty"`
	// Memory is the turn's memory evidence, nil for a turn the model does
	// not see (memory_state.go).
	Memory *TurnMemoryDelta `json:"memory,omitempty"`
	// TraceID and SpanID are the turn's trace and invoke_agent span as its
	// start journaled them (empty when it was not traced): a turn resumed
	// after a restart joins that trace.
	TraceID string `json:"trace_id,omitempty"`
	SpanID  string `json:"span_id,omitempty"`
}

// WatchdogState remembers the impossible wait last reported.
type WatchdogState struct {
	// ReportedTurn is the turn index whose closure was reported stalled.
	ReportedTurn uint64 `json:"reported_turn,omitempty"`
}

// ChildTaskRecord is the record of a child_agent_task: its child and the
// recovery spec that re-creates the child's journal if the runtime died
// between the parent's record and the child's creation.
type ChildTaskRecord struct {
	ChildAgentID  string              `json:"child_agent_id"`
	Summary       string              `json:"summary"`
	Prompt        string              `json:"prompt"`
	Trust         messages.TrustLevel `json:"trust"`
	WorkspaceMode string              `json:"workspace_mode"`
	// Worktree is the child's task-owned worktree in worktree mode, as
	// created; its cleanup outcome is in the task's result.
	Worktree *worktreespec.Info `json:"worktree,omitempty"`
}

// StatusChange moves the agent from its status to to.
func StatusChange(st *State, to messages.AgentStatus, reason string) messages.Payload {
	return messages.AgentStateChanged{From: st.Status, To: to, Reason: reason}
}

// hasArmedUserTimer reports a created timer waiting for a fire (not paused).
func hasArmedUserTimer(st *State) bool {
	for _, ut := range st.UserTimers {
		if !ut.Paused {
			return true
		}
	}
	return false
}

// ActiveSkill is a skill the agent activated.
type ActiveSkill struct {
	Name           string `json:"name"`
	Scope          string `json:"scope"`
	EntrypointPath string `json:"entrypoint_path"`
	State          string `json:"state"`
	TurnID         string `json:"turn_id,omitempty"`
}

// UserTimer is one created timer (messages.TimerCreated) of the agent and
// where it stands: the next due time, paused or not, its delivered fires
// and the runs it did not deliver since the last delivered one.
type UserTimer struct {
	Record     messages.TimerRecord `json:"record"`
	NextDueAt  time.Time            `json:"next_due_at"`
	Paused     bool                 `json:"paused,omitempty"`
	Fires      int                  `json:"fires"`
	LastFireAt *time.Time           `json:"last_fire_at,omitempty"`
	LastFireID string               `json:"last_fire_id,omitempty"`
	// LastMessageID is the timer_tick message of the last delivered fire:
	// the overlap policies ask whether it still waits or runs.
	LastMessageID string `json:"last_message_id,omitempty"`
	// Unreported counts runs not delivered (missed, coalesced, skipped)
	// since the last delivered fire; the next one reports them.
	Unreported int `json:"unreported,omitempty"`
}
