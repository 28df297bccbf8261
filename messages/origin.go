package messages

import "fmt"

// OriginKind says where a message came from.
type OriginKind string

// The origin kinds. Only OriginOperator represents the agent's owner.
const (
	OriginOperator OriginKind = "operator" // the primary human operator
	OriginChannel  OriginKind = "channel"  // an external participant surface; not the operator
	OriginWebhook  OriginKind = "webhook"  // machine-originated, kept structured
	OriginCallback OriginKind = "callback" // an external system using a callback capability
	OriginTimer    OriginKind = "timer"    // a scheduled timer
	OriginSystem   OriginKind = "system"   // runtime-generated work, kept inspectable
	OriginTask     OriginKind = "task"     // background work rejoining the queue
)

var originKinds = enum[OriginKind]{name: "origin kind", values: []OriginKind{
	OriginOperator, OriginChannel, OriginWebhook, OriginCallback, OriginTimer, OriginSystem, OriginTask,
}}

// String returns the OriginKind as spelled in JSON.
func (k OriginKind) String() string { return string(k) }

// Valid reports whether k is one of the spec's origin kinds.
func (k OriginKind) Valid() bool { return originKinds.valid(k) }

// UnmarshalText parses an origin kind, rejecting unknown values.
func (k *OriginKind) UnmarshalText(text []byte) error { return originKinds.unmarshal(k, text) }

// ParseOriginKind returns the OriginKind spelled s or an error wrapping
// ErrUnknownValue.
func ParseOriginKind(s string) (OriginKind, error) { return originKinds.parse(s) }

// Origin preserves a message's source identity. It is a tagged union on Kind
// (a protobuf oneof in messages.proto): only the fields of that kind may be
// set, and JSON carries exactly those, e.g. {"kind":"channel","channel_id":"c1"}.
// Build one with the constructors (OperatorOrigin, ChannelOrigin, ...).
type Origin struct {
	Kind         OriginKind `json:"kind"`
	ActorID      string     `json:"actor_id,omitempty"`      // operator, optional
	ChannelID    string     `json:"channel_id,omitempty"`    // channel, required
	SenderID     string     `json:"sender_id,omitempty"`     // channel, optional
	Source       string     `json:"source,omitempty"`        // webhook required; callback optional
	EventType    string     `json:"event_type,omitempty"`    // webhook, optional
	DescriptorID string     `json:"descriptor_id,omitempty"` // callback, required
	TimerID      string     `json:"timer_id,omitempty"`      // timer, required
	Subsystem    string     `json:"subsystem,omitempty"`     // system, required
	TaskID       string     `json:"task_id,omitempty"`       // task, required
}

// originShapes is the union's layout: per kind, its required and optional
// fields by JSON key.
var originShapes = map[OriginKind]shape{
	OriginOperator: {optional: []string{"actor_id"}},
	OriginChannel:  {required: []string{"channel_id"}, optional: []string{"sender_id"}},
	OriginWebhook:  {required: []string{"source"}, optional: []string{"event_type"}},
	OriginCallback: {required: []string{"descriptor_id"}, optional: []string{"source"}},
	OriginTimer:    {required: []string{"timer_id"}},
	OriginSystem:   {required: []string{"subsystem"}},
	OriginTask:     {required: []string{"task_id"}},
}

// OperatorOrigin returns an operator origin; actorID may be empty.
func OperatorOrigin(actorID string) Origin { return Origin{Kind: OriginOperator, ActorID: actorID} }

// ChannelOrigin returns a channel origin; senderID may be empty.
func ChannelOrigin(channelID, senderID string) Origin {
	return Origin{Kind: OriginChannel, ChannelID: channelID, SenderID: senderID}
}

// WebhookOrigin returns a webhook origin; eventType may be empty.
func WebhookOrigin(source, eventType string) Origin {
	return Origin{Kind: OriginWebhook, Source: source, EventType: eventType}
}

// CallbackOrigin returns a callback origin; source may be empty.
func CallbackOrigin(descriptorID, source string) Origin {
	return Origin{Kind: OriginCallback, DescriptorID: descriptorID, Source: source}
}

// TimerOrigin returns a timer origin.
func TimerOrigin(timerID string) Origin { return Origin{Kind: OriginTimer, TimerID: timerID} }

// SystemOrigin returns a runtime origin naming the subsystem that made the
// message.
func SystemOrigin(subsystem string) Origin { return Origin{Kind: OriginSystem, Subsystem: subsystem} }

// TaskOrigin returns a task origin.
func TaskOrigin(taskID string) Origin { return Origin{Kind: OriginTask, TaskID: taskID} }

// Validate reports the first malformed field of o as a *FieldError wrapping
// ErrInvalidEnvelope, with paths as inside an envelope ("origin.kind",
// "origin.channel_id"): the kind must be known, its required fields set and
// no field of another kind set.
func (o Origin) Validate() error { return o.validate("origin") }

func (o Origin) validate(prefix string) error {
	s, ok := originShapes[o.Kind]
	if !ok {
		return fieldError(ErrInvalidEnvelope, prefix+".kind", fmt.Sprintf("%q is not an origin kind", o.Kind))
	}
	return s.check(ErrInvalidEnvelope, prefix, string(o.Kind)+" origin", o.fields())
}

// fields lists the union members in declaration order.
func (o Origin) fields() []field {
	return []field{
		{"actor_id", o.ActorID != ""},
		{"channel_id", o.ChannelID != ""},
		{"sender_id", o.SenderID != ""},
		{"source", o.Source != ""},
		{"event_type", o.EventType != ""},
		{"descriptor_id", o.DescriptorID != ""},
		{"timer_id", o.TimerID != ""},
		{"subsystem", o.Subsystem != ""},
		{"task_id", o.TaskID != ""},
	}
}
