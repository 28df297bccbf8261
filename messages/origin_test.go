package messages_test

import (
	"encoding/json"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestOriginJSON(t *testing.T) {
	tests := []struct {
		origin messages.Origin
		want   string
	}{
		{messages.OperatorOrigin("alice"), `{"kind":"operator","actor_id":"alice"}`},
		{messages.OperatorOrigin(""), `{"kind":"operator"}`},
		{messages.ChannelOrigin("c1", "u1"), `{"kind":"channel","channel_id":"c1","sender_id":"u1"}`},
		{messages.WebhookOrigin("github", "push"), `{"kind":"webhook","source":"github","event_type":"push"}`},
		{messages.CallbackOrigin("d1", "ci"), `{"kind":"callback","source":"ci","descriptor_id":"d1"}`},
		{messages.TimerOrigin("t1"), `{"kind":"timer","timer_id":"t1"}`},
		{messages.SystemOrigin("wake_hint"), `{"kind":"system","subsystem":"wake_hint"}`},
		{messages.TaskOrigin("task_1"), `{"kind":"task","task_id":"task_1"}`},
	}
	for _, tt := range tests {
		t.Run(string(tt.origin.Kind), func(t *testing.T) {
			if err := tt.origin.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if got := string(mustMarshal(t, tt.origin)); got != tt.want {
				t.Errorf("Marshal = %s, want %s", got, tt.want)
			}
			checkRoundTrip(t, []byte(tt.want), tt.origin)
		})
	}
}

func TestOriginValidate(t *testing.T) {
	tests := []struct {
		name   string
		origin messages.Origin
		field  string
	}{
		{"zero", messages.Origin{}, "origin.kind"},
		{"unknown kind", messages.Origin{Kind: "email"}, "origin.kind"},
		{"operator with sender", messages.Origin{Kind: messages.OriginOperator, SenderID: "u"}, "origin.sender_id"},
		{"channel missing id", messages.Origin{Kind: messages.OriginChannel}, "origin.channel_id"},
		{"channel with subsystem", messages.Origin{Kind: messages.OriginChannel, ChannelID: "c", Subsystem: "s"}, "origin.subsystem"},
		{"callback with event type", messages.Origin{Kind: messages.OriginCallback, DescriptorID: "d", EventType: "e"}, "origin.event_type"},
		{"system with actor", messages.Origin{Kind: messages.OriginSystem, Subsystem: "s", ActorID: "a"}, "origin.actor_id"},
		{"task with timer", messages.Origin{Kind: messages.OriginTask, TaskID: "t", TimerID: "x"}, "origin.timer_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkFieldError(t, tt.origin.Validate(), messages.ErrInvalidEnvelope, tt.field)
		})
	}
}

func TestOriginUnmarshalUnknownKind(t *testing.T) {
	var o messages.Origin
	if err := json.Unmarshal([]byte(`{"kind":"email","channel_id":"c"}`), &o); err == nil {
		t.Errorf("Unmarshal accepted origin kind email: %+v", o)
	}
}
