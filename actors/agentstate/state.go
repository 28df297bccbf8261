package agentstate

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
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

	Status messages.AgentStatus `json:"status"`
	// Model is the operator's model override for this agent's turns; ""
	// means the runtime's default model.
	Model string `json:"model,omitempty"`
	// CommandPolicy is the operator's command policy for this agent
	// (agents create --policy); nil means the runtime's configured one.
	CommandPolicy *messages.CommandPolicy `json:"command_policy,omitempty"`
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
	Conversation []providers.Item `json:"conversation,omitempty"`
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
	Sleep *SleepArgs `json:"sleep,omitempty"`
	// Ask is set when a RequestOperatorInput call of this round succeeded:
	// the turn ends after the batch with the agent suspended.
	Ask       *RequestInputArgs `json:"ask,omitempty"`
	AskCallID string            `json:"ask_call_id,omitempty"`
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
}

// Queue is four FIFO bands of admitted envelopes; Next returns the first
// envelope of the most urgent non-empty band.
type Queue struct {
	Bands [4][]messages.MessageEnvelope `json:"bands"`
}

// Len is the number of queued envelopes.
func (q *Queue) Len() int {
	n := 0
	for _, b := range q.Bands {
		n += len(b)
	}
	return n
}

// Push appends env to its priority's band.
func (q *Queue) Push(env messages.MessageEnvelope) {
	r := env.Priority.Rank()
	q.Bands[r] = append(q.Bands[r], env)
}

// Next returns the first envelope of the most urgent non-empty band.
func (q *Queue) Next() (messages.MessageEnvelope, bool) {
	for _, b := range q.Bands {
		if len(b) > 0 {
			return b[0], true
		}
	}
	return messages.MessageEnvelope{}, false
}

// Remove deletes the envelope with id, wherever it is.
func (q *Queue) Remove(id string) (messages.MessageEnvelope, bool) {
	for r, b := range q.Bands {
		if i := slices.IndexFunc(b, func(e messages.MessageEnvelope) bool { return e.ID == id }); i >= 0 {
			env := b[i]
			q.Bands[r] = slices.Delete(b, i, i+1)
			if len(q.Bands[r]) == 0 {
				q.Bands[r] = nil // release the backing array of a drained band
			}
			return env, true
		}
	}
	return messages.MessageEnvelope{}, false
}

// recentLimit bounds the admission dedupe window.
const recentLimit = 256

// rememberAdmitted keeps id and its admission's seq among the recent ones.
func (s *State) rememberAdmitted(id string, seq uint64) {
	s.Recent = append(s.Recent, id)
	s.RecentSeqs = append(s.RecentSeqs, seq)
	if len(s.Recent) > recentLimit {
		s.Recent = slices.Clone(s.Recent[len(s.Recent)-recentLimit:])
	}
	if len(s.RecentSeqs) > recentLimit {
		s.RecentSeqs = slices.Clone(s.RecentSeqs[len(s.RecentSeqs)-recentLimit:])
	}
}

// AdmittedSeq is the event_seq of the admission of the recent message id;
// ok is false when id is not recent. A message remembered by a snapshot
// older than RecentSeqs answers the last seq, as before the field.
func (s *State) AdmittedSeq(id string) (seq uint64, ok bool) {
	i := slices.Index(s.Recent, id)
	if i < 0 {
		return 0, false
	}
	if j := i - (len(s.Recent) - len(s.RecentSeqs)); j >= 0 {
		return s.RecentSeqs[j], true
	}
	return s.LastSeq, true
}

// Apply changes s by one durable event. It is the only function that
// changes AgentState, and it must be deterministic: it reads nothing but s
// and ev. Unknown payloads are an error: the closed event set guarantees
// this build wrote or understands every event it is given.
func (s *State) Apply(ev messages.Event) error {
	p, err := ev.Decode()
	if err != nil {
		return fmt.Errorf("apply seq %d: %w", ev.Seq, err)
	}
	return s.ApplyDecoded(ev, p)
}

// ApplyDecoded is apply with ev's payload already decoded from ev's bytes
// (see messages.NewEventDecoded).
func (s *State) ApplyDecoded(ev messages.Event, p messages.Payload) error {
	switch p := p.(type) {
	case messages.AgentCreated:
		s.Kind, s.Visibility, s.Ownership = p.Kind, p.Visibility, p.Ownership
		s.ProfilePreset, s.ParentAgentID, s.ExecutionRoot = p.ProfilePreset, p.ParentAgentID, p.ExecutionRoot
	case messages.AgentStateChanged:
		s.Status = p.To
	case messages.ConversationCompacted:
		s.applyCompaction(p)
	case messages.MessageAdmitted:
		if p.Envelope.Kind == messages.KindSystemTick && p.Envelope.SourceRefs["wake_hint"] != "" {
			s.PendingWakeHint = nil // taken as this SystemTick
		}
		s.Queue.Push(p.Envelope)
		s.rememberAdmitted(p.Envelope.ID, ev.Seq)
	case messages.MessageDropped:
		s.Queue.Remove(p.MessageID)
	case messages.AgentModelSet:
		s.Model = p.Model
	case messages.CommandPolicySet:
		s.CommandPolicy = p.Policy
	case messages.TokenBudgetSet:
		s.applyTokenBudgetSet(p)
	case messages.ChildUsageRecorded:
		s.applyChildUsage(p)
	case messages.MessageProcessingStarted:
		s.noteWorkTickStart(p)
		s.applyProcessingStarted(p, ev.At)
	case messages.ProviderRoundCompleted:
		if s.Turn != nil {
			s.Turn.Retry = nil
		}
		s.TotalInputTokens += p.TokenUsage.InputTokens
		s.TotalOutputTokens += p.TokenUsage.OutputTokens
		s.TotalModelRounds++
	case messages.AssistantRoundRecorded:
		s.traceWork("said: " + p.Text)
		s.applyAssistantRound(p)
	case messages.CommandLaunched:
		if err := s.applyCommandLaunched(ev, p); err != nil {
			return err
		}
	case messages.ToolCallStarted:
		if s.Turn != nil {
			s.Turn.Started = append(s.Turn.Started, p.CallID)
		}
	case messages.ToolExecuted:
		s.noteWorkTool(p)
		s.traceWork(fmt.Sprintf("%s %s: %s", p.ToolName, p.Status, messages.NotificationSummary(p.Receipt)))
		s.applyToolExecuted(p)
	case messages.TurnTerminal:
		s.noteWorkTurnEnd(p, ev.At)
		s.dropModelRetryTimer()
		s.Turn = nil
		s.TurnIndex = p.TurnIndex
		c := p.Closure
		s.LastClosure = &c
		s.resolveLastError(p, ev.At)
	case messages.BriefRecorded:
		at := ev.At
		s.LastBriefAt = &at
		s.applyBrief(p.Brief)
	case messages.RuntimeError:
		at := ev.At
		s.LastError, s.LastErrorAt, s.LastErrorResolvedAt = p.Failure.Message, &at, nil
	case messages.AgentSlept:
		s.Sleep = &SleepRecord{At: ev.At, Reason: p.Reason, ExpectedWake: p.ExpectedWake, Until: p.Until}
	case messages.TimerScheduled:
		if s.Timers == nil {
			s.Timers = make(map[string]TimerState)
		}
		s.Timers[p.TimerID] = TimerState{DueAt: p.DueAt, Reason: p.Reason, SuspensionID: p.SuspensionID,
			Purpose: p.Purpose, WorkItemID: p.WorkItemID}
		if r, ok := s.Suspensions[p.SuspensionID]; ok {
			r.DeadlineTimerID = p.TimerID
		}
	case messages.ModelRetryScheduled:
		s.applyModelRetryScheduled(p)
	case messages.TimerFired:
		s.releaseModelRetry(p.TimerID)
		delete(s.Timers, p.TimerID)
		if len(s.Timers) == 0 {
			s.Timers = nil
		}
	case messages.WakeHintRecorded:
		h := s.PendingWakeHint
		if h == nil {
			h = &WakeHint{}
		}
		h.Source, h.Reason, h.Count = p.Source, p.Reason, h.Count+1
		h.Contentful = h.Contentful || p.Contentful
		s.PendingWakeHint = h
	case messages.TaskStarted:
		if err := s.applyTaskStarted(ev, p); err != nil {
			return err
		}
	case messages.TaskFinished:
		s.applyTaskFinished(ev, p)
	case messages.SuspensionRequested:
		s.applySuspensionRequested(p)
	case messages.SuspensionResumed:
		s.settleSuspension(p.SuspensionID, p.Response)
	case messages.SuspensionExpired:
		s.applySuspensionExpired(p, ev.At)
	case messages.EngagementDecisionRecorded:
		// audit only
	case messages.OperatorNotificationRequested:
		s.applyOperatorNotification(p.Notification)
		s.noteOwnNotification(p.Notification)
	case messages.OperatorNotificationDelivery:
		s.applyNotificationDelivery(p)
	case messages.SystemNotificationQueued:
		s.queueSystemNotification(p.Notification)
	default:
		if !s.applyWorkItemEvent(p) {
			return fmt.Errorf("apply seq %d: no rule for %s", ev.Seq, ev.Type)
		}
	}
	s.LastSeq = ev.Seq
	return nil
}

// applyProcessingStarted starts a turn, or, when the event names the turn
// already in flight, splices an interjected message into it.
func (s *State) applyProcessingStarted(p messages.MessageProcessingStarted, at time.Time) {
	env, _ := s.Queue.Remove(p.MessageID)
	if s.Turn == nil || s.Turn.ID != p.TurnID {
		s.Turn = &TurnState{ID: p.TurnID, MessageID: p.MessageID, Index: p.TurnIndex, StartedAt: at}
	} else {
		s.Turn.Loop = LoopState{} // an interject changes the model's instructions: repeats count anew
	}
	s.Turn.AwaitingModel = true
	item := messageItem(env)
	if IsCarrierStart(p) {
		item.Notifications = p.Notifications
		s.PendingNotifications = nil
	}
	s.Conversation = append(s.Conversation, item)
}

func (s *State) applyAssistantRound(p messages.AssistantRoundRecorded) {
	s.Conversation = append(s.Conversation, providers.Item{
		Kind: providers.ItemAssistant, Text: p.Text, ToolCalls: p.ToolCalls,
	})
	if s.Turn == nil {
		return
	}
	s.Turn.Round = p.Round
	s.Turn.Calls = p.ToolCalls
	s.Turn.Started, s.Turn.Done = nil, nil
	s.Turn.LastText = p.Text
	s.Turn.AwaitingModel = false
}

func (s *State) applyToolExecuted(p messages.ToolExecuted) {
	item := providers.Item{
		Kind: providers.ItemToolResult, CallID: p.CallID, ToolName: p.ToolName,
		Text: p.Receipt, IsError: p.Status != messages.ToolOK,
	}
	if s.Turn == nil || !s.Turn.hasCall(messages.ToolCall{ID: p.CallID}) {
		// A result for an earlier round's call (repairConversation).
		s.Conversation = insertResult(s.Conversation, item)
		return
	}
	if p.ToolName == SleepToolName && p.Status == messages.ToolOK {
		s.Turn.Sleep = sleepArgsOf(p.Envelope)
	}
	if p.ToolName == RequestInputToolName && p.Status == messages.ToolOK && s.Turn.Ask == nil {
		s.Turn.Ask, s.Turn.AskCallID = requestArgsOf(p.Envelope), p.CallID
	}
	s.Turn.NoteRepeat(p)
	s.Turn.dropLaunches(p.CallID)
	s.Turn.Done = append(s.Turn.Done, p.CallID)
	if len(s.Turn.Done) == len(s.Turn.Calls) {
		s.Turn.AwaitingModel = true
		// The batch's last result carries the pending notifications.
		item.Notifications = p.Notifications
		s.PendingNotifications = nil
	}
	s.Conversation = insertResult(s.Conversation, item)
}

// messageItem renders an admitted envelope for the conversation, keeping
// its provenance labels.
func messageItem(env messages.MessageEnvelope) providers.Item {
	origin := env.Origin
	text := env.Body.Text
	if env.Body.Type == messages.BodyJSON {
		text = string(env.Body.Value)
	}
	return providers.Item{
		Kind: providers.ItemMessage, MessageID: env.ID, Origin: &origin,
		Authority: env.AuthorityClass, Text: text,
	}
}

// NextCall returns the first call of the last round without a durable
// tool_executed, and whether its tool_call_started is durable.
func (t *TurnState) NextCall() (call messages.ToolCall, started, ok bool) {
	for _, c := range t.Calls {
		if !slices.Contains(t.Done, c.ID) {
			return c, slices.Contains(t.Started, c.ID), true
		}
	}
	return messages.ToolCall{}, false, false
}

// Snapshot data layout: a small header, then the state's JSON.
//
//	byte 0        snapshotFormat
//	uvarint n     length of the header JSON
//	n bytes       header JSON: {"open_facts": [...]}
//	the rest      AgentState JSON
//
// The header lets boot recovery learn an agent's open facts without
// decoding its state (and whole conversation).
const snapshotFormat = 1

type snapshotHeader struct {
	OpenFacts []OpenFact `json:"open_facts"`
	Agent     *AgentInfo `json:"agent,omitempty"`
}

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
	// JournalQuarantined is true when the store quarantined the agent's
	// journal: it is not resumed and LastError says why.
	JournalQuarantined bool `json:"journal_quarantined,omitempty"`
}

// resolveLastError marks the standing LastError resolved when turn t
// completed without a failure.
func (s *State) resolveLastError(t messages.TurnTerminal, at time.Time) {
	if s.LastError == "" || s.LastErrorResolvedAt != nil || t.Kind != messages.TerminalCompleted || t.Closure.Outcome == messages.OutcomeFailed {
		return
	}
	s.LastErrorResolvedAt = &at
}

// Info is the list-sized projection of s (Active is left false: the
// caller knows whether the agent's actor runs).
func (s *State) Info() AgentInfo {
	return AgentInfo{ID: s.ID, Kind: s.Kind, Visibility: s.Visibility, Ownership: s.Ownership,
		ProfilePreset: s.ProfilePreset, ParentAgentID: s.ParentAgentID, ExecutionRoot: s.ExecutionRoot, Status: s.Status, LastSeq: s.LastSeq,
		Queued: s.Queue.Len(), TurnInFlight: s.Turn != nil, LastError: s.LastError, LastErrorAt: s.LastErrorAt, LastErrorResolvedAt: s.LastErrorResolvedAt, Model: s.Model,
		OpenSuspensions: s.openSuspensionIDs(), ActiveChildren: s.ChildIDs(), RunningTasks: len(s.OpenTasks()), TokenBudget: s.BudgetInfo(),
		ModelRetry: s.modelRetryInfo()}
}

// Snapshot encodes s for the snapshot store.
func (s *State) Snapshot() ([]byte, error) {
	return s.SnapshotRedacted(func(b []byte) []byte { return b })
}

// SnapshotRedacted is snapshot with redact applied to the header and the
// state JSON before they are framed.
func (s *State) SnapshotRedacted(redact func([]byte) []byte) ([]byte, error) {
	info := s.Info()
	head, err := json.Marshal(snapshotHeader{OpenFacts: OpenFacts(s), Agent: &info})
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	head, body = redact(head), redact(body)
	out := binary.AppendUvarint([]byte{snapshotFormat}, uint64(len(head)))
	out = append(out, head...)
	return append(out, body...), nil
}

// splitSnapshot returns a snapshot's header and state JSON.
func splitSnapshot(data []byte) (snapshotHeader, []byte, error) {
	var h snapshotHeader
	if len(data) == 0 || data[0] != snapshotFormat {
		return h, nil, fmt.Errorf("agent snapshot: unknown format")
	}
	n, k := binary.Uvarint(data[1:])
	if k <= 0 || uint64(len(data)-1-k) < n {
		return h, nil, fmt.Errorf("agent snapshot: bad header length")
	}
	head := data[1+k : 1+k+int(n)]
	if err := json.Unmarshal(head, &h); err != nil {
		return h, nil, fmt.Errorf("agent snapshot header: %w", err)
	}
	return h, data[1+k+int(n):], nil
}

// SnapshotOpenFacts reads the open facts recorded in an agent snapshot's
// header, without decoding the state.
func SnapshotOpenFacts(data []byte) ([]OpenFact, error) {
	h, _, err := splitSnapshot(data)
	return h.OpenFacts, err
}

// SnapshotInfo reads the AgentInfo recorded in a snapshot's header; ok is
// false for a snapshot written before headers carried it.
func SnapshotInfo(data []byte) (info AgentInfo, ok bool, err error) {
	h, _, err := splitSnapshot(data)
	if err != nil || h.Agent == nil {
		return AgentInfo{}, false, err
	}
	return *h.Agent, true, nil
}

// RestoreState decodes a snapshot.
func RestoreState(data []byte) (*State, error) {
	_, body, err := splitSnapshot(data)
	if err != nil {
		return nil, err
	}
	var s State
	if err := json.Unmarshal(body, &s); err != nil {
		return nil, fmt.Errorf("decode agent snapshot: %w", err)
	}
	return &s, nil
}
