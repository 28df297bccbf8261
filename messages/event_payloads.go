package messages

import (
	"encoding/json"
	"time"
)

// Payload is the typed body of one journal event. The set is closed: every
// implementation is a struct in this file, registered in payloadDecoders, and
// its EventType is a key of eventVersions.
type Payload interface {
	EventType() EventType
}

// MessageAdmitted records an envelope the agent accepted; the envelope is
// durable once this event is, and only then is the sender acknowledged.
type MessageAdmitted struct {
	Envelope MessageEnvelope `json:"envelope"`
}

// MessageProcessingStarted records that a queued message became the active
// run as turn TurnID. Continuation is set when the message resumed prior work.
type MessageProcessingStarted struct {
	MessageID    string        `json:"message_id"`
	TurnID       string        `json:"turn_id"`
	TurnIndex    uint64        `json:"turn_index"`
	Continuation *Continuation `json:"continuation,omitempty"`
	// Notifications are the pending system notifications this message
	// carries to the model (it is their carrier: they are delivered once).
	Notifications []SystemNotification `json:"notifications,omitempty"`
	// TraceID is the OpenTelemetry trace of the turn (32 hex digits) when
	// the runtime traced it; absent otherwise, and in older journals.
	TraceID string `json:"trace_id,omitempty"`
	// SpanID is the turn's invoke_agent span (16 hex digits) when traced:
	// a turn resumed after a restart continues under it, in its trace.
	SpanID string `json:"span_id,omitempty"`
}

// TokenUsage counts the tokens of one provider round. Missing provider data
// is zero, never an error.
type TokenUsage struct {
	InputTokens              uint64 `json:"input_tokens"`
	OutputTokens             uint64 `json:"output_tokens"`
	CacheReadInputTokens     uint64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens uint64 `json:"cache_creation_input_tokens"`
	TotalTokens              uint64 `json:"total_tokens"`
}

// ProviderRoundCompleted records the metrics of one model round-trip.
type ProviderRoundCompleted struct {
	TurnID          string     `json:"turn_id"`
	Round           uint32     `json:"round"`
	Provider        string     `json:"provider"`
	Model           string     `json:"model"`
	TokenUsage      TokenUsage `json:"token_usage"`
	ContextBuildMS  int64      `json:"context_build_ms"`
	ProviderRoundMS int64      `json:"provider_round_ms"`
	StopReason      string     `json:"stop_reason"`
	ResponseID      string     `json:"response_id,omitempty"`
	// AttemptTimeline is the provider attempt timeline of the round
	// (retries, fallbacks, per-attempt diagnostics) when the provider
	// keeps one; absent otherwise.
	AttemptTimeline json.RawMessage `json:"provider_attempt_timeline,omitempty"`
	// TraceID is the OpenTelemetry trace of the turn (32 hex digits) when
	// the runtime traced it; absent otherwise, and in older journals.
	TraceID string `json:"trace_id,omitempty"`
}

// AssistantRoundRecorded records the model's reply in one round: its text
// (possibly empty) and the tool calls it requested.
type AssistantRoundRecorded struct {
	TurnID    string     `json:"turn_id"`
	Round     uint32     `json:"round"`
	Text      string     `json:"text"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
}

// ToolCallStarted is journaled before a tool's side effect begins, so a
// restart knows the call may have happened.
type ToolCallStarted struct {
	TurnID    string          `json:"turn_id"`
	Round     uint32          `json:"round"`
	CallID    string          `json:"call_id"`
	ToolName  string          `json:"tool_name"`
	Arguments json.RawMessage `json:"arguments"`
	// TraceID is the OpenTelemetry trace of the turn (32 hex digits) when
	// the runtime traced it; absent otherwise, and in older journals.
	TraceID string `json:"trace_id,omitempty"`
}

// ToolExecuted records how a tool call ended: the canonical result envelope
// (JSON) and the receipt rendered for the model.
type ToolExecuted struct {
	TurnID     string          `json:"turn_id"`
	CallID     string          `json:"call_id"`
	ToolName   string          `json:"tool_name"`
	Status     ToolStatus      `json:"status"`
	Envelope   json.RawMessage `json:"envelope"`
	Receipt    string          `json:"receipt"`
	DurationMS int64           `json:"duration_ms"`
	// Notifications are the pending system notifications delivered with
	// this tool-result batch (set on the batch's last result).
	Notifications []SystemNotification `json:"notifications,omitempty"`
	// TraceID is the OpenTelemetry trace of the turn (32 hex digits) when
	// the runtime traced it; absent otherwise, and in older journals.
	TraceID string `json:"trace_id,omitempty"`
}

// TurnTerminal records that a turn settled, from runtime facts, and the
// closure derived from it. LastAssistantMessage may be empty.
type TurnTerminal struct {
	TurnID               string           `json:"turn_id"`
	MessageID            string           `json:"message_id"`
	TurnIndex            uint64           `json:"turn_index"`
	Kind                 TurnTerminalKind `json:"kind"`
	DurationMS           int64            `json:"duration_ms"`
	LastAssistantMessage string           `json:"last_assistant_message"`
	Closure              Closure          `json:"closure"`
	// TraceID is the OpenTelemetry trace of the turn (32 hex digits) when
	// the runtime traced it; absent otherwise, and in older journals.
	TraceID string `json:"trace_id,omitempty"`
}

// BriefRecorded records a user-facing brief.
type BriefRecorded struct {
	Brief Brief `json:"brief"`
}

// AgentStateChanged records a transition of the agent's runtime posture.
type AgentStateChanged struct {
	From   AgentStatus `json:"from,omitempty"` // empty when the writer did not know it (a supervisor's quarantine)
	To     AgentStatus `json:"to"`
	Reason string      `json:"reason"`
}

// RuntimeError is the audit record of a runtime or provider failure; TurnID
// and MessageID are empty when the failure happened outside a turn.
type RuntimeError struct {
	TurnID    string  `json:"turn_id,omitempty"`
	MessageID string  `json:"message_id,omitempty"`
	Failure   Failure `json:"failure"`
	// TraceID is the OpenTelemetry trace of the turn (32 hex digits) when
	// the runtime traced it; absent otherwise, and in older journals.
	TraceID string `json:"trace_id,omitempty"`
}

// AgentCreated records an agent's identity at creation. ParentAgentID is the
// lineage provenance of a child or spawned agent.
type AgentCreated struct {
	AgentID       string     `json:"agent_id"`
	Kind          AgentKind  `json:"kind"`
	Visibility    Visibility `json:"visibility"`
	Ownership     Ownership  `json:"ownership"`
	ProfilePreset string     `json:"profile_preset"` // public_named, private_child, ... (open set)
	ParentAgentID string     `json:"parent_agent_id,omitempty"`
	// ExecutionRoot, when set, is where the agent's tools run instead of
	// the runtime's workspace or its home: a worktree-mode child's worktree.
	ExecutionRoot string `json:"execution_root,omitempty"`
}

// AgentSlept records that the agent went to sleep, what kind of trigger it
// expects to wake it, and, for a timed sleep, until when.
type AgentSlept struct {
	Reason       string      `json:"reason"`
	ExpectedWake TriggerKind `json:"expected_wake"`
	Until        *time.Time  `json:"until,omitempty"`
}

// TimerScheduled records a timer the agent will be woken by at DueAt.
type TimerScheduled struct {
	TimerID string    `json:"timer_id"`
	DueAt   time.Time `json:"due_at"`
	Reason  string    `json:"reason"`
	// SuspensionID marks the deadline of a suspension's current attempt:
	// its fire re-notifies or applies the fallback, it wakes nothing.
	SuspensionID string `json:"suspension_id,omitempty"`
	// Purpose and WorkItemID mark a timer the runtime owns for a work item
	// (a recheck reminder, the end of an activation backoff).
	Purpose    TimerPurpose `json:"purpose,omitempty"`
	WorkItemID string       `json:"work_item_id,omitempty"`
}

// TimerFired records one firing of a timer; FireID distinguishes repeated
// firings of the same timer.
type TimerFired struct {
	TimerID string `json:"timer_id"`
	FireID  string `json:"fire_id"`

	// The fields below are set for a timer of TimerCreated only. DueAt is
	// the due time the fire was armed for and NextDueAt the next one (nil:
	// the timer has ended). Delivered is how many timer_tick messages the
	// fire admitted in its batch, the last one MessageID; Skipped counts
	// the runs it did not deliver (missed, coalesced or skipped), which the
	// next delivered fire reports. Manual marks an operator's run-now,
	// which leaves the schedule alone.
	DueAt     *time.Time `json:"due_at,omitempty"`
	NextDueAt *time.Time `json:"next_due_at,omitempty"`
	Delivered int        `json:"delivered,omitempty"`
	MessageID string     `json:"message_id,omitempty"`
	Skipped   int        `json:"skipped,omitempty"`
	Manual    bool       `json:"manual,omitempty"`
}

// WakeHintRecorded records a liveness poke from outside. A contentful hint
// may become a model-visible SystemTick; a plain one only wakes the agent.
type WakeHintRecorded struct {
	Source     string `json:"source"`
	Reason     string `json:"reason"`
	Contentful bool   `json:"contentful"`
}

// AgentModelSet records the operator's model override for an agent: its
// turns use Model instead of the runtime's default; "" clears it.
type AgentModelSet struct {
	Model  string `json:"model"`
	Reason string `json:"reason,omitempty"`
}

// CommandPolicySet records the operator's command policy for an agent
// (agents create --policy): it replaces the runtime's configured one for
// this agent; nil clears it.
type CommandPolicySet struct {
	Policy *CommandPolicy `json:"policy,omitempty"`
	Reason string         `json:"reason,omitempty"`
}

// TokenBudgetSet records an operator's token budget for an agent: its
// model rounds stop once the tokens it has spent (input plus output, its
// own rounds and its private descendants') reach LimitTokens; 0 means
// unlimited. The spend counts from the agent's creation; ResetSpend
// zeroes it, so the limit applies to what is spent from now on.
type TokenBudgetSet struct {
	LimitTokens uint64 `json:"limit_tokens"`
	ResetSpend  bool   `json:"reset_spend,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// ConversationCompacted records that the oldest DroppedItems items of the
// agent's replayable conversation leave the model's view before its next
// model round: Summary, the runtime's digest of everything compacted so
// far, takes their place. The conversation is never cut between tool
// calls and their results. PinnedMessageID, when set, is the running
// turn's message, kept in view although older than the cut. Token counts
// are the runtime's estimates.
type ConversationCompacted struct {
	DroppedItems    int    `json:"dropped_items"`
	PinnedMessageID string `json:"pinned_message_id,omitempty"`
	Summary         string `json:"summary"`
	TokensBefore    int    `json:"estimated_tokens_before"`
	TokensAfter     int    `json:"estimated_tokens_after"`
	TotalCompacted  uint64 `json:"total_compacted_items"`
}

// ChildUsageRecorded records tokens a private child agent (or one of its
// own descendants) spent, counted against this agent's budget.
// ChildTotalTokens is the child's lifetime total as it reported it;
// TokensAdded is what this report adds (the growth over the child's last
// recorded total), so a repeated or late report adds nothing. TokenUsage
// is the usage of the model round that prompted the report.
type ChildUsageRecorded struct {
	ChildAgentID     string     `json:"child_agent_id"`
	TokenUsage       TokenUsage `json:"token_usage"`
	ChildTotalTokens uint64     `json:"child_total_tokens"`
	TokensAdded      uint64     `json:"tokens_added"`
}

// Validate checks that the child is named.
func (p ChildUsageRecorded) Validate() error {
	if p.ChildAgentID == "" {
		return fieldError(ErrInvalidEvent, "child_agent_id", "is empty")
	}
	return nil
}

// MessageDropped records that an admitted message will never be processed.
type MessageDropped struct {
	MessageID string `json:"message_id"`
	Reason    string `json:"reason"`
}

// TaskStarted records a background task the agent now owns (a command
// promoted at its yield deadline), before the model is told about it.
// Record is the task kind's durable record as JSON: for a command_task,
// what tools/task.RecordOf returns (identity, process group id and token,
// output files), which lets a restarted runtime find its orphans.
type TaskStarted struct {
	TaskID  string `json:"task_id"`
	Kind    string `json:"kind"` // command_task, ...
	Summary string `json:"summary"`
	// ParentMessageID is the message whose turn started the task.
	ParentMessageID string          `json:"parent_message_id,omitempty"`
	Record          json.RawMessage `json:"record"`
}

// TaskFinished records a task's terminal state; it is authoritative (a
// terminal record beats a stale running message). Status is completed,
// failed, cancelled or interrupted; Result is the terminal task result as
// JSON (for a command_task, tools/task.OutputTask: output preview,
// artifacts, exit status, failure artifact).
type TaskFinished struct {
	TaskID     string          `json:"task_id"`
	Status     string          `json:"status"`
	ExitStatus *int            `json:"exit_status,omitempty"`
	Result     json.RawMessage `json:"result"`
}

// CommandLaunched records a command a tool call started, journaled while
// the command is held at its gate, before it may run. Record is its
// identity as JSON (tools/exec.Launch: pid, process group, start time,
// token, output and exit status files), which lets a restarted runtime
// kill every process of it, or report how it ended if it ended while the
// runtime was down.
type CommandLaunched struct {
	TurnID string          `json:"turn_id"`
	CallID string          `json:"call_id"`
	Record json.RawMessage `json:"record"`
}

// EventType implementations: the payload -> type half of the registry.

func (MessageAdmitted) EventType() EventType          { return EventMessageAdmitted }
func (MessageProcessingStarted) EventType() EventType { return EventMessageProcessingStarted }
func (ProviderRoundCompleted) EventType() EventType   { return EventProviderRoundCompleted }
func (AssistantRoundRecorded) EventType() EventType   { return EventAssistantRoundRecorded }
func (ToolCallStarted) EventType() EventType          { return EventToolCallStarted }
func (ToolExecuted) EventType() EventType             { return EventToolExecuted }
func (TurnTerminal) EventType() EventType             { return EventTurnTerminal }
func (BriefRecorded) EventType() EventType            { return EventBriefRecorded }
func (AgentStateChanged) EventType() EventType        { return EventAgentStateChanged }
func (RuntimeError) EventType() EventType             { return EventRuntimeError }
func (AgentCreated) EventType() EventType             { return EventAgentCreated }
func (AgentSlept) EventType() EventType               { return EventAgentSlept }
func (TimerScheduled) EventType() EventType           { return EventTimerScheduled }
func (TimerFired) EventType() EventType               { return EventTimerFired }
func (WakeHintRecorded) EventType() EventType         { return EventWakeHintRecorded }
func (MessageDropped) EventType() EventType           { return EventMessageDropped }
func (TaskStarted) EventType() EventType              { return EventTaskStarted }
func (TaskFinished) EventType() EventType             { return EventTaskFinished }
func (CommandLaunched) EventType() EventType          { return EventCommandLaunched }
func (AgentModelSet) EventType() EventType            { return EventAgentModelSet }
func (TokenBudgetSet) EventType() EventType           { return EventTokenBudgetSet }
func (CommandPolicySet) EventType() EventType         { return EventCommandPolicySet }
func (ConversationCompacted) EventType() EventType    { return EventConversationCompacted }
func (ChildUsageRecorded) EventType() EventType       { return EventChildUsageRecorded }
func (SuspensionRequested) EventType() EventType      { return EventSuspensionRequested }
func (SuspensionResumed) EventType() EventType        { return EventSuspensionResumed }
func (SuspensionExpired) EventType() EventType        { return EventSuspensionExpired }
func (EngagementDecisionRecorded) EventType() EventType {
	return EventEngagementDecision
}
func (OperatorNotificationRequested) EventType() EventType {
	return EventOperatorNotificationRequested
}
func (OperatorNotificationDelivery) EventType() EventType {
	return EventOperatorNotificationDelivery
}
func (SystemNotificationQueued) EventType() EventType { return EventSystemNotificationQueued }

// Validate checks the admitted envelope (see MessageEnvelope.Validate).
func (p MessageAdmitted) Validate() error { return p.Envelope.Validate() }

// Validate checks the closure (see Closure.Validate).
func (p TurnTerminal) Validate() error { return p.Closure.Validate() }
