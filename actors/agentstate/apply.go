package agentstate

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

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
	s.noteMemoryEvidence(p)
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
	case messages.MCPSelectionSet:
		s.MCP = &p.Selection
	case messages.SkillActivated:
		s.applySkillActivated(p)
	case messages.TokenBudgetSet:
		s.applyTokenBudgetSet(p)
	case messages.ChildUsageRecorded:
		s.applyChildUsage(p)
	case messages.MessageProcessingStarted:
		s.noteWorkTickStart(p)
		s.applyProcessingStarted(p, ev.At)
		s.promptMemory(p)
	case messages.ProviderRoundCompleted:
		if s.Turn != nil {
			s.Turn.Retry = nil
		}
		s.TotalInputTokens += p.TokenUsage.InputTokens
		s.TotalOutputTokens += p.TokenUsage.OutputTokens
		s.TotalModelRounds++
	case messages.AssistantRoundRecorded:
		if s.tracingWork() { // the line is built only for a bound turn
			s.traceWork("said: " + p.Text)
		}
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
		if s.tracingWork() {
			s.traceWork(fmt.Sprintf("%s %s: %s", p.ToolName, p.Status, messages.NotificationSummary(p.Receipt)))
		}
		s.applyToolExecuted(p)
	case messages.TurnTerminal:
		s.settleSkills(p)
		s.noteWorkTurnEnd(p, ev.At)
		s.dropModelRetryTimer()
		s.Turn = nil
		s.TurnIndex = p.TurnIndex
		s.noteAnswered()
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
		if s.applyUserTimerFired(p, ev.At) {
			break
		}
		s.releaseModelRetry(p.TimerID)
		delete(s.Timers, p.TimerID)
		if len(s.Timers) == 0 {
			s.Timers = nil
		}
	case messages.TimerCreated:
		s.applyTimerCreated(p)
	case messages.TimerCancelled:
		s.dropUserTimer(p.TimerID)
	case messages.TimerPaused:
		s.applyTimerPaused(p)
	case messages.TimerResumed:
		s.applyTimerResumed(p)
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
	case messages.WorkingMemoryUpdated:
		s.applyWorkingMemory(p)
	case messages.EpisodeFinalized:
		s.applyEpisodeFinalized(p.Episode)
	default:
		if !s.applyWorkItemEvent(p) && !s.applyWorkspaceEvent(p) && !s.applyActivation(p) {
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
		s.Turn = &TurnState{ID: p.TurnID, MessageID: p.MessageID, Index: p.TurnIndex, StartedAt: at, TraceID: p.TraceID, SpanID: p.SpanID}
	} else {
		s.Turn.Loop = LoopState{} // an interject changes the model's instructions: repeats count anew
	}
	s.Turn.AwaitingModel = true
	item := messageItem(env)
	if IsCarrierStart(p) {
		item.Notifications = p.Notifications
		s.PendingNotifications = nil
	}
	s.appendItem(item)
}

func (s *State) applyAssistantRound(p messages.AssistantRoundRecorded) {
	s.appendItem(llm.Item{Kind: llm.ItemAssistant, Text: p.Text, ToolCalls: p.ToolCalls})
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
	item := llm.Item{
		Kind: llm.ItemToolResult, CallID: p.CallID, ToolName: p.ToolName,
		Text: p.Receipt, IsError: p.Status != messages.ToolOK,
	}
	if s.Turn == nil || !s.Turn.hasCall(messages.ToolCall{ID: p.CallID}) {
		// A result for an earlier round's call (repairConversation).
		s.insertItem(item)
		s.answered = 0 // it may land among the items marked answered
		return
	}
	if p.ToolName == SleepToolName && p.Status == messages.ToolOK {
		s.Turn.Sleep = resultOf[SleepState](p.Envelope)
	}
	if p.ToolName == RequestInputToolName && p.Status == messages.ToolOK && s.Turn.Ask == nil {
		s.Turn.Ask, s.Turn.AskCallID = resultOf[AskState](p.Envelope), p.CallID
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
	s.insertItem(item)
}

// resolveLastError marks the standing LastError resolved when turn t
// completed without a failure.
func (s *State) resolveLastError(t messages.TurnTerminal, at time.Time) {
	if s.LastError == "" || s.LastErrorResolvedAt != nil || t.Kind != messages.TerminalCompleted || t.Closure.Outcome == messages.OutcomeFailed {
		return
	}
	s.LastErrorResolvedAt = &at
}

// resultOf reads the result of a runtime tool's success envelope (its
// arguments, echoed): our own envelope, so a failure to decode leaves the
// zero record (a Sleep that rests until woken).
func resultOf[T any](envelope json.RawMessage) *T {
	var env struct {
		Result T `json:"result"`
	}
	_ = json.Unmarshal(envelope, &env)
	return &env.Result
}
