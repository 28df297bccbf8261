package messages_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestTriggerKindFor(t *testing.T) {
	tests := []struct {
		kind messages.MessageKind
		want messages.TriggerKind
	}{
		{messages.KindOperatorPrompt, messages.TriggerOperatorInput},
		{messages.KindChannelEvent, messages.TriggerExternalEvent},
		{messages.KindWebhookEvent, messages.TriggerExternalEvent},
		{messages.KindCallbackEvent, messages.TriggerExternalEvent},
		{messages.KindTimerTick, messages.TriggerTimerFire},
		{messages.KindSystemTick, messages.TriggerSystemTick},
		{messages.KindTaskResult, messages.TriggerTaskResult},
		{messages.KindTaskStatus, messages.TriggerTaskResult},
		{messages.KindInternalFollowup, messages.TriggerInternalFollowup},
		{messages.KindControl, messages.TriggerInternalFollowup},
		{messages.KindBriefAck, messages.TriggerInternalFollowup},
		{messages.KindBriefResult, messages.TriggerInternalFollowup},
		{"bogus", ""},
	}
	if len(tests)-1 != len(messages.EnumValues["MessageKind"]) {
		t.Fatalf("table has %d kinds, want all %d", len(tests)-1, len(messages.EnumValues["MessageKind"]))
	}
	for _, tt := range tests {
		if got := messages.TriggerKindFor(tt.kind); got != tt.want {
			t.Errorf("TriggerKindFor(%q) = %q, want %q", tt.kind, got, tt.want)
		}
	}
}
