package messages

import (
	"slices"
)

// The journal event types, each with the newest schema version this build
// writes and reads. Adding a type or raising a version is a reviewed change:
// old journals must keep decoding (see testdata/events/). Each type has one
// payload struct in event_payloads.go.
const (
	EventMessageAdmitted          EventType = "message_admitted"
	EventMessageProcessingStarted EventType = "message_processing_started"
	EventProviderRoundCompleted   EventType = "provider_round_completed"
	EventAssistantRoundRecorded   EventType = "assistant_round_recorded"
	EventToolCallStarted          EventType = "tool_call_started"
	EventToolExecuted             EventType = "tool_executed"
	EventTurnTerminal             EventType = "turn_terminal"
	EventBriefRecorded            EventType = "brief_recorded"
	EventAgentStateChanged        EventType = "agent_state_changed"
	EventRuntimeError             EventType = "runtime_error"
	EventAgentCreated             EventType = "agent_created"
	EventAgentSlept               EventType = "agent_slept"
	EventTimerScheduled           EventType = "timer_scheduled"
	EventTimerFired               EventType = "timer_fired"
	EventWakeHintRecorded         EventType = "wake_hint_recorded"
	EventMessageDropped           EventType = "message_dropped"
	EventTaskStarted              EventType = "task_started"
	EventTaskFinished             EventType = "task_finished"
	EventAgentModelSet            EventType = "agent_model_set"
	EventTokenBudgetSet           EventType = "token_budget_set"
	EventCommandPolicySet         EventType = "command_policy_set"
	EventChildUsageRecorded       EventType = "child_usage_recorded"
	EventConversationCompacted    EventType = "conversation_compacted"
	EventModelRetryScheduled      EventType = "model_retry_scheduled"
	EventCommandLaunched          EventType = "command_launched"

	EventSuspensionRequested           EventType = "suspension_requested"
	EventSuspensionResumed             EventType = "suspension_resumed"
	EventSuspensionExpired             EventType = "suspension_expired"
	EventEngagementDecision            EventType = "engagement_decision"
	EventOperatorNotificationRequested EventType = "operator_notification_requested"
	EventOperatorNotificationDelivery  EventType = "operator_notification_delivery"
	EventSystemNotificationQueued      EventType = "system_notification_queued"

	EventWorkItemCreated         EventType = "work_item_created"
	EventWorkItemUpdated         EventType = "work_item_updated"
	EventWorkItemPicked          EventType = "work_item_picked"
	EventWorkItemCompleted       EventType = "work_item_completed"
	EventWorkItemRecheckConsumed EventType = "work_item_recheck_consumed"
	EventWorkItemBound           EventType = "work_item_bound"

	EventTimerCreated      EventType = "timer_created"
	EventTimerCancelled    EventType = "timer_cancelled"
	EventTimerPaused       EventType = "timer_paused"
	EventTimerResumed      EventType = "timer_resumed"
	EventWorkspaceAttached EventType = "workspace_attached"
	EventWorkspaceUsed     EventType = "workspace_used"
	EventWorkspaceDetached EventType = "workspace_detached"
	EventSkillActivated    EventType = "skill_activated"

	EventWorkingMemoryUpdated EventType = "working_memory_updated"
	EventEpisodeFinalized     EventType = "episode_finalized"
	EventMCPSelectionSet      EventType = "mcp_selection_set"
	EventAgentActivated       EventType = "agent_activated"
)

// eventVersions is the closed set and the single source of truth for it:
// type -> newest supported schema version.
var eventVersions = map[EventType]uint32{
	EventMessageAdmitted:          1,
	EventMessageProcessingStarted: 1,
	EventProviderRoundCompleted:   1,
	EventAssistantRoundRecorded:   1,
	EventToolCallStarted:          1,
	EventToolExecuted:             1,
	EventTurnTerminal:             1,
	EventBriefRecorded:            1,
	EventAgentStateChanged:        1,
	EventRuntimeError:             1,
	EventAgentCreated:             1,
	EventAgentSlept:               1,
	EventTimerScheduled:           1,
	EventTimerFired:               1,
	EventWakeHintRecorded:         1,
	EventMessageDropped:           1,
	EventTaskStarted:              1,
	EventTaskFinished:             1,
	EventAgentModelSet:            1,
	EventTokenBudgetSet:           1,
	EventCommandPolicySet:         1,
	EventChildUsageRecorded:       1,
	EventConversationCompacted:    1,
	EventModelRetryScheduled:      1,
	EventCommandLaunched:          1,

	EventSuspensionRequested:           1,
	EventSuspensionResumed:             1,
	EventSuspensionExpired:             1,
	EventEngagementDecision:            1,
	EventOperatorNotificationRequested: 1,
	EventOperatorNotificationDelivery:  1,
	EventSystemNotificationQueued:      1,

	EventWorkItemCreated:         1,
	EventWorkItemUpdated:         1,
	EventWorkItemPicked:          1,
	EventWorkItemCompleted:       1,
	EventWorkItemRecheckConsumed: 1,
	EventWorkItemBound:           1,

	EventTimerCreated:      1,
	EventTimerCancelled:    1,
	EventTimerPaused:       1,
	EventTimerResumed:      1,
	EventWorkspaceAttached: 1,
	EventWorkspaceUsed:     1,
	EventWorkspaceDetached: 1,
	EventSkillActivated:    1,

	EventWorkingMemoryUpdated: 1,
	EventEpisodeFinalized:     1,
	EventMCPSelectionSet:      1,
	EventAgentActivated:       1,
}

// String returns the EventType as spelled in JSON.
func (t EventType) String() string { return string(t) }

// Valid reports whether t is an event type this build knows.
func (t EventType) Valid() bool {
	_, ok := eventVersions[t]
	return ok
}

// Version returns the newest schema version of t this build writes, or 0 if
// t is unknown.
func (t EventType) Version() uint32 { return eventVersions[t] }

// EventTypes returns every known event type, sorted.
func EventTypes() []EventType {
	ts := make([]EventType, 0, len(eventVersions))
	for t := range eventVersions {
		ts = append(ts, t)
	}
	slices.Sort(ts)
	return ts
}
