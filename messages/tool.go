package messages

import "encoding/json"

// ToolCall is one tool invocation requested by the model in an assistant
// round. Arguments holds the model's JSON arguments as received.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ToolStatus is how a tool execution ended.
type ToolStatus string

// The tool statuses.
const (
	ToolOK          ToolStatus = "ok"
	ToolError       ToolStatus = "error"
	ToolInterrupted ToolStatus = "interrupted" // cancelled at a safe point or by shutdown
)

var toolStatuses = enum[ToolStatus]{name: "tool status", values: []ToolStatus{ToolOK, ToolError, ToolInterrupted}}

// String returns the ToolStatus as spelled in JSON.
func (s ToolStatus) String() string { return string(s) }

// Valid reports whether s is a known tool status.
func (s ToolStatus) Valid() bool { return toolStatuses.valid(s) }

// UnmarshalText parses a tool status, rejecting unknown values.
func (s *ToolStatus) UnmarshalText(text []byte) error { return toolStatuses.unmarshal(s, text) }

// ParseToolStatus returns the ToolStatus spelled s or an error wrapping
// ErrUnknownValue.
func ParseToolStatus(s string) (ToolStatus, error) { return toolStatuses.parse(s) }
