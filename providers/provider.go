package providers

import (
	"context"
	"github.com/holon-actors/holon-actors/providers/llm"

	"github.com/holon-actors/holon-actors/messages"
)

// Provider completes one model round. Implementations are immutable and
// safe for concurrent use; Complete returns promptly when ctx is cancelled.
type Provider interface {
	// Name identifies the provider candidate, e.g. "openai/gpt-5".
	Name() string
	// Complete sends req and returns the model's reply. Failures are
	// *Error values (or wrap one) so callers can classify them.
	Complete(ctx context.Context, req Request) (Response, error)
}

// Response is the model's reply to one round: its text and tool-call
// blocks, why it stopped, its token usage and the vendor's response id.
type Response struct {
	Text       string              `json:"text"`
	ToolCalls  []messages.ToolCall `json:"tool_calls,omitempty"`
	StopReason string              `json:"stop_reason"`
	Usage      messages.TokenUsage `json:"token_usage"`
	ResponseID string              `json:"response_id,omitempty"`
	Model      string              `json:"model"` // the model that answered
	// Timeline lists every attempt of the round when a Chain answered;
	// a single transport leaves it nil.
	Timeline *ProviderAttemptTimeline `json:"provider_attempt_timeline,omitempty"`
}

// The normalized stop reasons. Transports map vendor reasons onto these
// and keep unknown ones as sent.
const (
	StopEndTurn   = "end_turn"   // the model finished
	StopToolUse   = "tool_use"   // the model requested tool calls
	StopMaxTokens = "max_tokens" // the output cap cut the reply
	StopRefusal   = "refusal"    // the model or a filter refused
)

// The provider-neutral request and conversation types live in
// providers/llm, a leaf without I/O, so an agent's pure state can hold
// them; these names are the same types.
type (
	// Request is llm.Request.
	Request = llm.Request
	// PromptFrame is llm.PromptFrame.
	PromptFrame = llm.PromptFrame
	// Block is llm.Block.
	Block = llm.Block
	// PromptCache is llm.PromptCache.
	PromptCache = llm.PromptCache
	// ItemKind is llm.ItemKind.
	ItemKind = llm.ItemKind
	// Item is llm.Item.
	Item = llm.Item
	// ToolSpec is llm.ToolSpec.
	ToolSpec = llm.ToolSpec
)

// The conversation item kinds (see llm.ItemKind).
const (
	ItemMessage      = llm.ItemMessage
	ItemAssistant    = llm.ItemAssistant
	ItemToolResult   = llm.ItemToolResult
	ItemNotification = llm.ItemNotification
)

// Rounds is llm.Rounds.
func Rounds(req Request) int { return llm.Rounds(req) }
