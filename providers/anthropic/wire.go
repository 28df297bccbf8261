package anthropic

import "encoding/json"

// The Messages API's wire types: the parts of a CreateMessage request this
// transport sends and of the Message it reads, named as in the vendor's
// API reference. Field order is the order the golden request bodies pin
// (the order the SDK wrote them in); a field the API requires is always
// written, only optional ones are omitted when empty.

// request is a CreateMessage body.
type request struct {
	MaxTokens int64             `json:"max_tokens"`
	Messages  []message         `json:"messages"`
	Model     string            `json:"model"`
	System    []textBlock       `json:"system,omitempty"`
	Tools     []json.RawMessage `json:"tools"` // each a tool, encoded once (providers.ToolCache); [] when none
}

// message is one MessageParam: a role and its content blocks.
type message struct {
	Content []contentBlock `json:"content"`
	Role    string         `json:"role"` // user or assistant
}

// contentBlock is one block of a message's content: a text, tool_use or
// tool_result block. encoding/json writes each by its dynamic type.
type contentBlock interface{ isContentBlock() }

// textBlock is a TextBlockParam, in a message or the system list.
type textBlock struct {
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
	Type         string        `json:"type"` // text
}

// toolUseBlock is a ToolUseBlockParam: a call the assistant made.
type toolUseBlock struct {
	ID    string          `json:"id"`
	Input json.RawMessage `json:"input"` // the call's arguments as the model sent them
	Name  string          `json:"name"`
	Type  string          `json:"type"` // tool_use
}

// toolResultBlock is a ToolResultBlockParam with one text block.
type toolResultBlock struct {
	ToolUseID    string        `json:"tool_use_id"`
	IsError      bool          `json:"is_error,omitempty"` // sent only when true
	CacheControl *cacheControl `json:"cache_control,omitempty"`
	Content      []textBlock   `json:"content"`
	Type         string        `json:"type"` // tool_result
}

func (*textBlock) isContentBlock()       {}
func (*toolUseBlock) isContentBlock()    {}
func (*toolResultBlock) isContentBlock() {}

// cacheControl is a CacheControlEphemeral: a prompt-cache breakpoint
// after the block that carries it.
type cacheControl struct {
	Type string `json:"type"` // ephemeral
}

// ephemeral is the one breakpoint value every marked block shares; it is
// never modified.
var ephemeral = &cacheControl{Type: "ephemeral"}

// tool is a Tool of the tools list (a custom tool: no type is sent).
type tool struct {
	InputSchema json.RawMessage `json:"input_schema"` // an inputSchema with its other keywords after it
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Strict      bool            `json:"strict,omitempty"` // sent only in strict mode
}

// inputSchema is the fixed head of a tool's input_schema; the schema's
// other keywords follow it (encodeInputSchema).
type inputSchema struct {
	Properties json.RawMessage `json:"properties,omitempty"`
	Required   []string        `json:"required,omitempty"`
	Type       string          `json:"type"` // always object
}

// response is a Message, the reply of a non-streaming request.
type response struct {
	ID         string          `json:"id"`
	Type       string          `json:"type"` // message
	Role       string          `json:"role"` // assistant
	Model      string          `json:"model"`
	Content    []responseBlock `json:"content"`
	StopReason string          `json:"stop_reason"`
	Usage      usage           `json:"usage"`
}

// responseBlock is one ContentBlock of a reply; only text and tool_use
// blocks are read, every other type (thinking, server tools) is skipped.
type responseBlock struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`  // text
	ID    string          `json:"id"`    // tool_use
	Name  string          `json:"name"`  // tool_use
	Input json.RawMessage `json:"input"` // tool_use
}

type usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
}
