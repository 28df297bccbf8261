package messages_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestDefaultTrust(t *testing.T) {
	tests := []struct {
		origin messages.OriginKind
		want   messages.TrustLevel
	}{
		{messages.OriginOperator, messages.TrustedOperator},
		{messages.OriginSystem, messages.TrustedSystem},
		{messages.OriginTask, messages.TrustedSystem},
		{messages.OriginTimer, messages.TrustedSystem},
		{messages.OriginCallback, messages.TrustedIntegration},
		{messages.OriginWebhook, messages.TrustedIntegration},
		{messages.OriginChannel, messages.UntrustedExternal},
		{"bogus", messages.UntrustedExternal},
	}
	for _, tt := range tests {
		if got := messages.DefaultTrust(tt.origin); got != tt.want {
			t.Errorf("DefaultTrust(%q) = %q, want %q", tt.origin, got, tt.want)
		}
	}
}
