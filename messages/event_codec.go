package messages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// payloadDecoders is the type -> payload half of the registry. Its keys must
// equal eventVersions' keys (a test checks). A decoder receives the event's
// schema version so a future version bump can upgrade old payloads here.
var payloadDecoders = map[EventType]func(version uint32, raw []byte) (Payload, error){
	EventMessageAdmitted:          decodeAs[MessageAdmitted],
	EventMessageProcessingStarted: decodeAs[MessageProcessingStarted],
	EventProviderRoundCompleted:   decodeAs[ProviderRoundCompleted],
	EventAssistantRoundRecorded:   decodeAs[AssistantRoundRecorded],
	EventToolCallStarted:          decodeAs[ToolCallStarted],
	EventToolExecuted:             decodeAs[ToolExecuted],
	EventTurnTerminal:             decodeAs[TurnTerminal],
	EventBriefRecorded:            decodeAs[BriefRecorded],
	EventAgentStateChanged:        decodeAs[AgentStateChanged],
	EventRuntimeError:             decodeAs[RuntimeError],
	EventAgentCreated:             decodeAs[AgentCreated],
	EventAgentSlept:               decodeAs[AgentSlept],
	EventTimerScheduled:           decodeAs[TimerScheduled],
	EventTimerFired:               decodeAs[TimerFired],
	EventWakeHintRecorded:         decodeAs[WakeHintRecorded],
	EventMessageDropped:           decodeAs[MessageDropped],
	EventTaskStarted:              decodeAs[TaskStarted],
	EventTaskFinished:             decodeAs[TaskFinished],
	EventAgentModelSet:            decodeAs[AgentModelSet],
	EventTokenBudgetSet:           decodeAs[TokenBudgetSet],
	EventCommandPolicySet:         decodeAs[CommandPolicySet],
	EventConversationCompacted:    decodeAs[ConversationCompacted],
	EventChildUsageRecorded:       decodeAs[ChildUsageRecorded],
	EventModelRetryScheduled:      decodeAs[ModelRetryScheduled],
	EventCommandLaunched:          decodeAs[CommandLaunched],

	EventSuspensionRequested:           decodeAs[SuspensionRequested],
	EventSuspensionResumed:             decodeAs[SuspensionResumed],
	EventSuspensionExpired:             decodeAs[SuspensionExpired],
	EventEngagementDecision:            decodeAs[EngagementDecisionRecorded],
	EventOperatorNotificationRequested: decodeAs[OperatorNotificationRequested],
	EventOperatorNotificationDelivery:  decodeAs[OperatorNotificationDelivery],
	EventSystemNotificationQueued:      decodeAs[SystemNotificationQueued],

	EventWorkItemCreated:         decodeAs[WorkItemCreated],
	EventWorkItemUpdated:         decodeAs[WorkItemUpdated],
	EventWorkItemPicked:          decodeAs[WorkItemPicked],
	EventWorkItemCompleted:       decodeAs[WorkItemCompleted],
	EventWorkItemRecheckConsumed: decodeAs[WorkItemRecheckConsumed],
	EventWorkItemBound:           decodeAs[WorkItemBound],

	EventTimerCreated:      decodeAs[TimerCreated],
	EventTimerCancelled:    decodeAs[TimerCancelled],
	EventTimerPaused:       decodeAs[TimerPaused],
	EventTimerResumed:      decodeAs[TimerResumed],
	EventWorkspaceAttached: decodeAs[WorkspaceAttached],
	EventWorkspaceUsed:     decodeAs[WorkspaceUsed],
	EventWorkspaceDetached: decodeAs[WorkspaceDetached],
	EventSkillActivated:    decodeAs[SkillActivated],

	EventWorkingMemoryUpdated: decodeAs[WorkingMemoryUpdated],
	EventEpisodeFinalized:     decodeAs[EpisodeFinalized],
	EventMCPSelectionSet:      decodeAs[MCPSelectionSet],
	EventAgentActivated:       decodeAs[AgentActivated],
}

// NewEvent returns the event recording p for agentID at time at: a fresh id
// from NewID("evt"), p's type at its newest version and p's JSON as payload.
// Seq stays zero for the journal to assign. If p has a Validate method it
// must pass, and the event must decode again (enum values in range): what
// NewEvent returns, replay can apply. The error wraps ErrInvalidEvent or the
// payload's own sentinel. At is stored in UTC without a monotonic reading,
// as the journal gives it back.
func NewEvent(agentID string, at time.Time, p Payload) (Event, error) {
	e, _, err := NewEventDecoded(agentID, at, p)
	return e, err
}

// NewEventDecoded is NewEvent that also returns the payload decoded from
// the event's own bytes: exactly what a replay of the event will apply, so
// a writer can apply it live. Where a copy of p is provably that decode
// (decodedCopy) it is the copy, and the bytes are not decoded at all.
func NewEventDecoded(agentID string, at time.Time, p Payload) (Event, Payload, error) {
	if v, ok := p.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return Event{}, nil, fmt.Errorf("new %s event: %w", p.EventType(), err)
		}
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return Event{}, nil, fmt.Errorf("new %s event: encode payload: %w", p.EventType(), err)
	}
	e := Event{
		ID:      NewID("evt"),
		AgentID: agentID,
		Type:    p.EventType(),
		Version: p.EventType().Version(),
		At:      at.Round(0).UTC(), // JSON and the journal carry no monotonic reading or zone
		Payload: raw,
	}
	if err := e.validateHeader(); err != nil {
		return Event{}, nil, fmt.Errorf("new %s event: %w", p.EventType(), err)
	}
	// What replay will apply, without decoding the bytes just encoded where
	// the copy is exactly their decode (decoded_copy.go).
	if decoded, ok := decodedCopy(p); ok {
		return e, decoded, nil
	}
	// An event that would not decode must never reach a journal: replay
	// would refuse it and the agent could not be rebuilt.
	decoded, err := e.Decode()
	if err != nil {
		return Event{}, nil, fmt.Errorf("new %s event: %w", p.EventType(), err)
	}
	return e, decoded, nil
}

// Decode validates e and returns its typed payload, a value of the struct
// registered for e.Type (MessageAdmitted, TurnTerminal, ...). Unknown types
// and versions, unknown payload fields and values outside an enum's set are
// errors; the error wraps ErrInvalidEvent.
func (e Event) Decode() (Payload, error) {
	if err := e.validateHeader(); err != nil {
		return nil, err
	}
	decode, ok := payloadDecoders[e.Type]
	if !ok { // unreachable while the registry test passes
		return nil, fieldError(ErrInvalidEvent, "type", fmt.Sprintf("%q has no payload decoder", e.Type))
	}
	p, err := decode(e.Version, e.Payload)
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fieldError(ErrInvalidEvent, "payload", "is not valid JSON")
	}
	if err != nil {
		return nil, fieldError(ErrInvalidEvent, "payload", fmt.Sprintf("does not decode as %s: %v", e.Type, err))
	}
	return p, nil
}

// decodeAs strictly decodes one JSON value into a T: unknown fields and
// trailing data are errors.
func decodeAs[T Payload](_ uint32, raw []byte) (Payload, error) {
	var p T
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after payload")
	}
	return p, nil
}
