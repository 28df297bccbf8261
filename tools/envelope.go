package tools

import (
	"encoding/json"
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
)

// Envelope is the canonical tool result of rfc-tool-result-envelope: the
// same shape for success and failure. Issue 6 grows the family renderers;
// this is the shape they all share.
type Envelope struct {
	ToolName    string          `json:"tool_name"`
	Status      string          `json:"status"` // "success" or "error"
	SummaryText string          `json:"summary_text"`
	Result      json.RawMessage `json:"result,omitempty"`
	Error       *ToolError      `json:"error,omitempty"`
}

// ToolError is the error half of an Envelope.
type ToolError struct {
	Kind         string          `json:"kind"`
	Message      string          `json:"message"`
	Details      json.RawMessage `json:"details,omitempty"`
	RecoveryHint string          `json:"recovery_hint,omitempty"`
	Retryable    bool            `json:"retryable"`
}

// Error kinds the runtime itself produces.
const (
	KindInvalidToolInput = "invalid_tool_input"
	KindUnknownTool      = "unknown_tool"
	KindInterrupted      = "interrupted"
)

// Success returns a success result whose receipt is summary.
func Success(tool, summary string, result any) Result {
	raw, err := json.Marshal(result)
	if err != nil || result == nil {
		raw = nil
	}
	env := Envelope{ToolName: tool, Status: "success", SummaryText: summary, Result: raw}
	return Result{Status: messages.ToolOK, Envelope: mustJSON(env), Receipt: summary}
}

// Failure returns an error result the model can act on: the receipt states
// the kind, the message and the hint.
func Failure(tool string, status messages.ToolStatus, e ToolError) Result {
	env := Envelope{ToolName: tool, Status: "error", SummaryText: e.Message, Error: &e}
	receipt := fmt.Sprintf("%s failed (%s): %s", tool, e.Kind, e.Message)
	if e.RecoveryHint != "" {
		receipt += "\nHint: " + e.RecoveryHint
	}
	return Result{Status: status, Envelope: mustJSON(env), Receipt: receipt}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("tools: envelope does not marshal: %v", err)) // programmer error
	}
	return b
}
