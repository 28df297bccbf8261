package messages_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestValidateAgentID(t *testing.T) {
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"main", true},
		{"researcher-2", true},
		{"tmp_run_01jz8x", true},
		{"child_01JZ8XKQ4W", true},
		{"a.b", true},
		{strings.Repeat("a", messages.AgentIDMaxLen), true},
		{"", false},
		{strings.Repeat("a", messages.AgentIDMaxLen+1), false},
		{"my agent", false},
		{"a/b", false},
		{"..", false},
		{".hidden", false},
		{"-flag", false},
		{"ünicode", false},
		{"tab\there", false},
	} {
		err := messages.ValidateAgentID(tc.id)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateAgentID(%q) = %v, want ok %v", tc.id, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), messages.AgentIDRule) {
			t.Errorf("ValidateAgentID(%q) = %v: want the rule in the error", tc.id, err)
		}
	}
}

func TestValidateMessageID(t *testing.T) {
	if err := messages.ValidateMessageID(strings.Repeat("m", messages.MessageIDMaxLen)); err != nil {
		t.Errorf("a %d-byte id: %v", messages.MessageIDMaxLen, err)
	}
	err := messages.ValidateMessageID(strings.Repeat("m", messages.MessageIDMaxLen+1))
	var fe *messages.FieldError
	if !errors.Is(err, messages.ErrInvalidEnvelope) || !errors.As(err, &fe) || fe.Field != "id" {
		t.Errorf("a %d-byte id: %v, want an invalid envelope naming id", messages.MessageIDMaxLen+1, err)
	}
}
