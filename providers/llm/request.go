package llm

import (
	"encoding/json"

	"github.com/holon-actors/holon-actors/messages"
)

// Request is one provider round: the prompt frame, the replayable
// conversation and the tool catalog. Transports lower it to their wire
// format; they must not change its meaning.
type Request struct {
	AgentID      string      `json:"agent_id,omitempty"`
	TurnID       string      `json:"turn_id,omitempty"`
	Round        uint32      `json:"round,omitempty"`
	Model        string      `json:"model,omitempty"` // the agent's model override, or "" for the default
	Frame        PromptFrame `json:"frame"`
	Conversation []Item      `json:"conversation"`
	Tools        []ToolSpec  `json:"tools,omitempty"`
	// CompactedRounds counts the assistant rounds the runtime compacted out
	// of Conversation (its summary, the first item, stands for them).
	CompactedRounds int `json:"compacted_rounds,omitempty"`
}

// Rounds is how many assistant rounds came before this request: those in
// its conversation plus the compacted ones. A scripted provider picks its
// step by it, so a replayed request gets the same answer.
func Rounds(req Request) int {
	n := req.CompactedRounds
	for _, it := range req.Conversation {
		if it.Kind == ItemAssistant {
			n++
		}
	}
	return n
}

// PromptFrame is the provider-neutral prompt of runtime-spec-v0 "Provider
// Prompt Frame": stable system content, then context blocks.
type PromptFrame struct {
	SystemPrompt  string       `json:"system_prompt"`
	SystemBlocks  []Block      `json:"system_blocks,omitempty"`
	ContextBlocks []Block      `json:"context_blocks,omitempty"`
	Cache         *PromptCache `json:"cache,omitempty"`
}

// Block is one block of prompt text. CacheBreakpoint marks where a
// transport with prompt-cache blocks may cut.
type Block struct {
	Text            string `json:"text"`
	CacheBreakpoint bool   `json:"cache_breakpoint,omitempty"`
}

// PromptCache is the cache identity of a frame. PromptCacheKey stays the
// same across ordinary turns and rotates only when the stable prompt surface
// changes; ContextFingerprint covers the whole projected context and is
// diagnostic only.
type PromptCache struct {
	AgentID               string `json:"agent_id"`
	PromptCacheKey        string `json:"prompt_cache_key"`
	ContextFingerprint    string `json:"context_fingerprint"`
	WorkingMemoryRevision uint64 `json:"working_memory_revision"`
	CompressionEpoch      uint64 `json:"compression_epoch"`
}

// ItemKind tells the kinds of conversation items apart.
type ItemKind string

// The conversation item kinds.
const (
	// ItemMessage is an admitted message with its provenance labels.
	ItemMessage ItemKind = "message"
	// ItemAssistant is one assistant round: text and tool calls.
	ItemAssistant ItemKind = "assistant"
	// ItemToolResult is the rendered receipt of one tool call.
	ItemToolResult ItemKind = "tool_result"
	// ItemNotification is a delivered system notification: runtime
	// information for the model, never an operator instruction.
	ItemNotification ItemKind = "notification"
)

// String returns the kind as spelled in JSON.
func (k ItemKind) String() string { return string(k) }

// Item is one entry of the replayable conversation.
type Item struct {
	Kind ItemKind `json:"kind"`

	// ItemMessage: who said it and with what authority.
	MessageID string                  `json:"message_id,omitempty"`
	Origin    *messages.Origin        `json:"origin,omitempty"`
	Authority messages.AuthorityClass `json:"authority_class,omitempty"`

	// Text of a message, an assistant round, or a tool result's receipt.
	Text string `json:"text"`

	// ItemAssistant: the calls requested in that round.
	ToolCalls []messages.ToolCall `json:"tool_calls,omitempty"`

	// ItemToolResult: which call this answers and whether it failed.
	CallID   string `json:"call_id,omitempty"`
	ToolName string `json:"tool_name,omitempty"`
	IsError  bool   `json:"is_error,omitempty"`

	// Notifications are system notifications this item carries to the
	// model (a message, or the last result of a tool batch). Transports
	// place them as the runtime's own words: before a message's content,
	// after a batch's tool results (see messages.RenderSystemNotifications).
	Notifications []messages.SystemNotification `json:"notifications,omitempty"`
}

// ToolSpec describes one tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"` // a JSON schema object
}
