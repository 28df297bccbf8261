package messages

// MessageKind says what an admitted message represents.
type MessageKind string

// The message kinds of the first spec version.
const (
	KindOperatorPrompt   MessageKind = "operator_prompt"   // direct input from the primary operator
	KindChannelEvent     MessageKind = "channel_event"     // external communication surface; not the operator
	KindWebhookEvent     MessageKind = "webhook_event"     // structured machine input from an external system
	KindCallbackEvent    MessageKind = "callback_event"    // external system delivering to a callback capability
	KindTimerTick        MessageKind = "timer_tick"        // scheduled wake from a timer
	KindSystemTick       MessageKind = "system_tick"       // runtime self-wake to continue work
	KindTaskResult       MessageKind = "task_result"       // terminal result of asynchronous work rejoining the agent
	KindTaskStatus       MessageKind = "task_status"       // observational status of asynchronous work
	KindControl          MessageKind = "control"           // lifecycle command: pause, resume, stop
	KindBriefAck         MessageKind = "brief_ack"         // user-facing acknowledgement delivery record
	KindBriefResult      MessageKind = "brief_result"      // user-facing result delivery record
	KindInternalFollowup MessageKind = "internal_followup" // explicit runtime-generated prompt
)

var messageKinds = enum[MessageKind]{name: "message kind", values: []MessageKind{
	KindOperatorPrompt, KindChannelEvent, KindWebhookEvent, KindCallbackEvent,
	KindTimerTick, KindSystemTick, KindTaskResult, KindTaskStatus,
	KindControl, KindBriefAck, KindBriefResult, KindInternalFollowup,
}}

// String returns the MessageKind as spelled in JSON.
func (k MessageKind) String() string { return string(k) }

// Valid reports whether k is one of the spec's message kinds.
func (k MessageKind) Valid() bool { return messageKinds.valid(k) }

// UnmarshalText parses a message kind, rejecting unknown values.
func (k *MessageKind) UnmarshalText(text []byte) error { return messageKinds.unmarshal(k, text) }

// ParseMessageKind returns the MessageKind spelled s or an error wrapping
// ErrUnknownValue.
func ParseMessageKind(s string) (MessageKind, error) { return messageKinds.parse(s) }

// TriggerKind is the normalized admission trigger of a message (the spec's
// ContinuationTriggerKind). It is a total classification of message kinds;
// continuation policy may still treat some kinds as non-continuations.
type TriggerKind string

// The continuation trigger kinds.
const (
	TriggerOperatorInput    TriggerKind = "operator_input"
	TriggerTaskResult       TriggerKind = "task_result"
	TriggerExternalEvent    TriggerKind = "external_event"
	TriggerTimerFire        TriggerKind = "timer_fire"
	TriggerInternalFollowup TriggerKind = "internal_followup"
	TriggerSystemTick       TriggerKind = "system_tick"
)

var triggerKinds = enum[TriggerKind]{name: "trigger kind", values: []TriggerKind{
	TriggerOperatorInput, TriggerTaskResult, TriggerExternalEvent,
	TriggerTimerFire, TriggerInternalFollowup, TriggerSystemTick,
}}

// String returns the TriggerKind as spelled in JSON.
func (k TriggerKind) String() string { return string(k) }

// Valid reports whether k is one of the spec's trigger kinds.
func (k TriggerKind) Valid() bool { return triggerKinds.valid(k) }

// UnmarshalText parses a trigger kind, rejecting unknown values.
func (k *TriggerKind) UnmarshalText(text []byte) error { return triggerKinds.unmarshal(k, text) }

// ParseTriggerKind returns the TriggerKind spelled s or an error wrapping
// ErrUnknownValue.
func ParseTriggerKind(s string) (TriggerKind, error) { return triggerKinds.parse(s) }

// triggerKindByMessageKind is the admission classification. control,
// brief_ack and brief_result have no trigger of their own in the original
// runtime (its continuation code treats them, like task_status, as
// non-continuations); since the envelope classification must be total we
// label them internal_followup: runtime-side records that never stand for
// operator, task, timer or external input. Continuation policy still decides
// separately that they do not resume the model.
var triggerKindByMessageKind = map[MessageKind]TriggerKind{
	KindOperatorPrompt:   TriggerOperatorInput,
	KindChannelEvent:     TriggerExternalEvent,
	KindWebhookEvent:     TriggerExternalEvent,
	KindCallbackEvent:    TriggerExternalEvent,
	KindTimerTick:        TriggerTimerFire,
	KindSystemTick:       TriggerSystemTick,
	KindTaskResult:       TriggerTaskResult,
	KindTaskStatus:       TriggerTaskResult,
	KindInternalFollowup: TriggerInternalFollowup,
	KindControl:          TriggerInternalFollowup,
	KindBriefAck:         TriggerInternalFollowup,
	KindBriefResult:      TriggerInternalFollowup,
}

// TriggerKindFor returns the trigger kind the runtime derives for a message
// of kind k. It is total over the valid kinds and returns "" for an invalid
// one.
func TriggerKindFor(k MessageKind) TriggerKind { return triggerKindByMessageKind[k] }
