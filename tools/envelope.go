package tools

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/holon-actors/holon-actors/messages"
)

// Envelope is the canonical tool result of rfc-tool-result-envelope: the
// same shape for success and failure. A success carries Result and no
// Error; a failure carries Error and no Result. Family results live in
// Result; the model sees the receipt a family Renderer derives from it.
type Envelope struct {
	ToolName    string          `json:"tool_name"`
	Status      string          `json:"status"` // "success" or "error"
	SummaryText string          `json:"summary_text"`
	Result      json.RawMessage `json:"result,omitempty"`
	Error       *ToolError      `json:"error,omitempty"`
}

// The envelope statuses.
const (
	StatusSuccess = "success"
	StatusError   = "error"
)

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
	KindInvalidToolInput       = "invalid_tool_input"
	KindUnknownTool            = "unknown_tool"
	KindInterrupted            = "interrupted"
	KindExecutionRootViolation = "execution_root_violation"
)

// maxErrorDetails bounds error.details in the rendered error receipt;
// larger details are replaced by a preview and a digest.
const maxErrorDetails = 2000

// Success returns a success result whose receipt is summary: the short
// confirmation of a small tool.
func Success(tool, summary string, result any) Result {
	return Build(SuccessEnvelope(tool, summary, result), Confirmation)
}

// SuccessEnvelope is the canonical success envelope with result marshalled.
func SuccessEnvelope(tool, summary string, result any) Envelope {
	var raw json.RawMessage
	if result != nil {
		raw = mustJSON(result)
		if bytes.Equal(raw, []byte("null")) {
			raw = nil
		}
	}
	return Envelope{ToolName: tool, Status: StatusSuccess, SummaryText: summary, Result: raw}
}

// Failure returns an error result the model can act on. Its receipt is the
// bounded JSON error receipt of the Tool Error Envelope Contract: ok,
// tool_name, kind, message, hint, field (from details.field), retryable and
// details, with oversized details replaced by a preview and a digest.
func Failure(tool string, status messages.ToolStatus, e ToolError) Result {
	env := Envelope{ToolName: tool, Status: StatusError, SummaryText: e.Message, Error: &e}
	return Result{Status: status, Envelope: mustJSON(env), Receipt: RenderError(env)}
}

// Build validates env (a success has no error, a failure has one), keeps
// it as the canonical envelope and renders its receipt with r; failures
// always render as the shared error receipt.
func Build(env Envelope, r Renderer) Result {
	switch {
	case env.Status == StatusError && env.Error != nil:
		env.Result = nil
		return Result{Status: messages.ToolError, Envelope: mustJSON(env), Receipt: RenderError(env)}
	case env.Status == StatusSuccess && env.Error == nil:
		return Result{Status: messages.ToolOK, Envelope: mustJSON(env), Receipt: r.Render(env)}
	}
	panic(fmt.Sprintf("tools: envelope of %s has status %q with error %v", env.ToolName, env.Status, env.Error != nil)) // programmer error
}

// errorReceipt is the rendered error receipt, fields in contract order.
type errorReceipt struct {
	OK        bool            `json:"ok"`
	ToolName  string          `json:"tool_name,omitempty"`
	Kind      string          `json:"kind"`
	Message   string          `json:"message"`
	Hint      string          `json:"hint,omitempty"`
	Field     string          `json:"field,omitempty"`
	Retryable bool            `json:"retryable"`
	Details   json.RawMessage `json:"details,omitempty"`
}

// RenderError renders the error receipt of a failed envelope.
func RenderError(env Envelope) string {
	e := env.Error
	if e == nil {
		return env.SummaryText
	}
	r := errorReceipt{ToolName: env.ToolName, Kind: e.Kind, Message: e.Message, Hint: e.RecoveryHint, Retryable: e.Retryable}
	if len(e.Details) > 0 {
		var d struct {
			Field string `json:"field"`
		}
		if json.Unmarshal(e.Details, &d) == nil {
			r.Field = d.Field
		}
		r.Details = boundedDetails(e.Details)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		panic(fmt.Sprintf("tools: error receipt does not marshal: %v", err)) // programmer error
	}
	return string(bytes.TrimRight(b.Bytes(), "\n"))
}

func boundedDetails(d json.RawMessage) json.RawMessage {
	if len(d) <= maxErrorDetails {
		return d
	}
	sum := sha256.Sum256(d)
	preview, _ := HeadTail(string(d), maxErrorDetails/2)
	return mustJSON(map[string]any{"preview": preview, "bytes": len(d), "sha256": hex.EncodeToString(sum[:])})
}

func mustJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("tools: envelope does not marshal: %v", err)) // programmer error
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}
