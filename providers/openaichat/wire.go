package openaichat

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// The Chat Completions wire types: the parts of CreateChatCompletionRequest
// this transport sends and of CreateChatCompletionResponse it reads, named
// as in the vendor's OpenAPI document (../shared/vendor-specs). Field order
// is the order the golden request bodies pin.

// createChatCompletionRequest is a CreateChatCompletionRequest body.
type createChatCompletionRequest struct {
	Messages       []chatCompletionRequestMessage `json:"messages"` // required: [] when empty, never omitted
	Model          string                         `json:"model"`
	MaxTokens      int64                          `json:"max_tokens,omitempty"`       // only a positive cap
	PromptCacheKey string                         `json:"prompt_cache_key,omitempty"` // only to OpenAI itself
	Tools          []json.RawMessage              `json:"tools,omitempty"`            // each a chatCompletionTool, encoded once (providers.ToolCache)
}

// chatCompletionRequestMessage is one ChatCompletionRequestMessage: a
// system, user, assistant or tool message. encoding/json writes each by
// its dynamic type, so each variant has its own fields only.
type chatCompletionRequestMessage interface{ isRequestMessage() }

// chatCompletionRequestSystemMessage is a system message with text content.
type chatCompletionRequestSystemMessage struct {
	Content string `json:"content"`
	Role    string `json:"role"` // system
}

// chatCompletionRequestUserMessage is a user message with text content.
type chatCompletionRequestUserMessage struct {
	Content string `json:"content"`
	Role    string `json:"role"` // user
}

// chatCompletionRequestAssistantMessage is an assistant round replayed.
// Content is optional when tool_calls are present; an assistant round
// without text sends none, as it always has.
type chatCompletionRequestAssistantMessage struct {
	Content   string                          `json:"content,omitempty"`
	ToolCalls []chatCompletionMessageToolCall `json:"tool_calls,omitempty"`
	Role      string                          `json:"role"` // assistant
}

// chatCompletionRequestToolMessage is a tool call's result with text
// content; content and tool_call_id are required, even empty.
type chatCompletionRequestToolMessage struct {
	Content    string `json:"content"`
	ToolCallID string `json:"tool_call_id"`
	Role       string `json:"role"` // tool
}

func (*chatCompletionRequestSystemMessage) isRequestMessage()    {}
func (*chatCompletionRequestUserMessage) isRequestMessage()      {}
func (*chatCompletionRequestAssistantMessage) isRequestMessage() {}
func (*chatCompletionRequestToolMessage) isRequestMessage()      {}

// chatCompletionMessageToolCall is a function tool call of an assistant
// message.
type chatCompletionMessageToolCall struct {
	ID       string       `json:"id"`
	Function functionCall `json:"function"`
	Type     string       `json:"type"` // function
}

type functionCall struct {
	Arguments string `json:"arguments"`
	Name      string `json:"name"`
}

// chatCompletionTool is a function tool of the tools list.
type chatCompletionTool struct {
	Function functionObject `json:"function"`
	Type     string         `json:"type"` // function
}

// functionObject is a FunctionObject.
type functionObject struct {
	Name        string          `json:"name"`
	Strict      bool            `json:"strict"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// createChatCompletionResponse is a CreateChatCompletionResponse.
type createChatCompletionResponse struct {
	ID      string                 `json:"id"`
	Model   string                 `json:"model"`
	Choices []chatCompletionChoice `json:"choices"`
	Usage   completionUsage        `json:"usage"`
}

// chatCompletionChoice is one item of choices.
type chatCompletionChoice struct {
	FinishReason string                        `json:"finish_reason"`
	Message      chatCompletionResponseMessage `json:"message"`
}

// chatCompletionResponseMessage is a ChatCompletionResponseMessage.
type chatCompletionResponseMessage struct {
	Content   looseText          `json:"content"`
	Refusal   looseText          `json:"refusal"`
	ToolCalls []responseToolCall `json:"tool_calls"`
}

// responseToolCall is a ChatCompletionMessageToolCalls item: a function
// tool call (ChatCompletionMessageToolCall) or another type, skipped.
type responseToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string    `json:"name"`
		Arguments looseText `json:"arguments"`
	} `json:"function"`
}

// completionUsage is a CompletionUsage.
type completionUsage struct {
	PromptTokens        tokenCount `json:"prompt_tokens"`
	CompletionTokens    tokenCount `json:"completion_tokens"`
	TotalTokens         tokenCount `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens tokenCount `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

// looseText is a string field that compatible servers sometimes fill with
// other JSON (tool arguments as an object, content as parts): a string is
// itself, null is "", any other value is its JSON text.
type looseText string

func (t *looseText) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = looseText(s)
	case string(b) == "null":
		*t = ""
	default:
		*t = looseText(b)
	}
	return nil
}

// tokenCount is a usage count. Usage never fails a reply: a fraction is
// truncated, a number in a string is read, a negative count is 0, one past
// math.MaxInt64 is math.MaxInt64, and anything else is 0.
type tokenCount uint64

func (c *tokenCount) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(b, `"`))
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		*c = tokenCount(max(n, 0))
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !math.IsInf(f, 0), !(f > 0): // not a number, NaN or not positive
		*c = 0
	case f >= math.MaxInt64:
		*c = math.MaxInt64
	default:
		*c = tokenCount(f)
	}
	return nil
}
