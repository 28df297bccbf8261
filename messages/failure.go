package messages

import "encoding/json"

// FailureCategory distinguishes where an operator-facing failure came from.
type FailureCategory string

// The failure categories.
const (
	FailureTransport FailureCategory = "transport" // provider transport-stage failure
	FailureProtocol  FailureCategory = "protocol"  // unsupported contract or invalid response class
	FailureRuntime   FailureCategory = "runtime"   // runtime message or turn failure
	FailureTask      FailureCategory = "task"      // task command or task framework failure
	FailureUnknown   FailureCategory = "unknown"   // anything unclassified
)

var failureCategories = enum[FailureCategory]{name: "failure category", values: []FailureCategory{
	FailureTransport, FailureProtocol, FailureRuntime, FailureTask, FailureUnknown,
}}

// String returns the FailureCategory as spelled in JSON.
func (c FailureCategory) String() string { return string(c) }

// Valid reports whether c is one of the spec's failure categories.
func (c FailureCategory) Valid() bool { return failureCategories.valid(c) }

// UnmarshalText parses a failure category, rejecting unknown values.
func (c *FailureCategory) UnmarshalText(text []byte) error {
	return failureCategories.unmarshal(c, text)
}

// ParseFailureCategory returns the FailureCategory spelled s or an error
// wrapping ErrUnknownValue.
func ParseFailureCategory(s string) (FailureCategory, error) { return failureCategories.parse(s) }

// Failure is how a failure is journaled: a stable code and message, never a
// Go error value. Summary is the concise operator-facing sentence; Details
// holds bounded structured diagnostics as a JSON object (provider attempt
// timeline, token usage, ...).
type Failure struct {
	Category FailureCategory `json:"category"`
	Code     string          `json:"code"`
	Message  string          `json:"message"`
	Summary  string          `json:"summary"`
	Details  json.RawMessage `json:"details,omitempty"`
}
