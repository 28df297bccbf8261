package messages

import "fmt"

// Bounds of the ids operators and callers choose.
const (
	// AgentIDMaxLen is the longest agent id, in bytes.
	AgentIDMaxLen = 64
	// MessageIDMaxLen is the longest message id (a caller's message_id),
	// in bytes.
	MessageIDMaxLen = 128
)

// AgentIDRule says in one phrase what an agent id may be.
const AgentIDRule = "1 to 64 ASCII letters, digits, '.', '_' or '-', starting with a letter or digit"

// ValidateAgentID reports whether id follows AgentIDRule: such an id is a
// safe directory name, URL path segment and journal stream name.
func ValidateAgentID(id string) error {
	if id == "" || len(id) > AgentIDMaxLen {
		return fmt.Errorf("agent id %q is %d bytes long: want %s", id, len(id), AgentIDRule)
	}
	for i, c := range []byte(id) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return fmt.Errorf("agent id %q has %q at byte %d: want %s", id, c, i, AgentIDRule)
		}
	}
	return nil
}

// ValidateMessageID reports a message id longer than MessageIDMaxLen as a
// *FieldError wrapping ErrInvalidEnvelope. It is checked when a message is
// admitted, not when a journal is read, so older journals still load.
func ValidateMessageID(id string) error {
	if len(id) > MessageIDMaxLen {
		return envelopeError("id", fmt.Sprintf("is %d bytes long; at most %d", len(id), MessageIDMaxLen))
	}
	return nil
}
