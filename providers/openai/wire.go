package openai

import "encoding/json"

// The Responses API's wire types: the parts of CreateResponse this runtime
// sends and of Response and its stream events it reads, named as in the
// vendor's OpenAPI document (../shared/vendor-specs). Field order is the
// order the golden request bodies pin.

// request is a CreateResponse body.
type request struct {
	Instructions       string            `json:"instructions,omitempty"`
	PromptCacheKey     string            `json:"prompt_cache_key,omitempty"`
	PreviousResponseID string            `json:"previous_response_id,omitempty"`
	Input              []inputItem       `json:"input"`
	Model              string            `json:"model"`
	Tools              []json.RawMessage `json:"tools,omitempty"` // each a function tool, encoded once (providers.ToolCache)
	MaxOutputTokens    int64             `json:"max_output_tokens,omitempty"`
}

// codexRequest is a CreateResponse body under the Codex rules: streamed,
// never stored, reasoning null, include empty and no max_output_tokens.
type codexRequest struct {
	request
	Reasoning json.RawMessage `json:"reasoning"` // always null
	Include   []string        `json:"include"`   // always empty
	Store     bool            `json:"store"`     // always false
	Stream    bool            `json:"stream"`    // always true
}

// inputItem is one item of the input list: a message, a function call or
// a function call's output. encoding/json writes each by its dynamic type.
type inputItem interface{ isInputItem() }

// wireMessage is an EasyInputMessage with text content.
type wireMessage struct {
	Content string `json:"content"`
	Role    string `json:"role"`
}

// wireFunctionCall is a FunctionToolCall replayed as input.
type wireFunctionCall struct {
	Arguments string `json:"arguments"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Type      string `json:"type"` // function_call
}

// wireFunctionCallOutput is a FunctionCallOutputItemParam with text output.
type wireFunctionCallOutput struct {
	Output string `json:"output"`
	CallID string `json:"call_id"`
	Type   string `json:"type"` // function_call_output
}

func (*wireMessage) isInputItem()            {}
func (*wireFunctionCall) isInputItem()       {}
func (*wireFunctionCallOutput) isInputItem() {}

// functionTool is a FunctionTool of the tools list.
type functionTool struct {
	Strict      bool            `json:"strict"`
	Parameters  json.RawMessage `json:"parameters"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Type        string          `json:"type"`
}

// response is a Response: what a non-streaming reply is, and what the
// terminal stream events carry.
type response struct {
	ID                string             `json:"id"`
	Model             string             `json:"model"`
	Status            string             `json:"status"`
	Error             *responseError     `json:"error"`
	IncompleteDetails *incompleteDetails `json:"incomplete_details"`
	Output            []outputItem       `json:"output"`
	Usage             usageWire          `json:"usage"`
}

type responseError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type incompleteDetails struct {
	Reason string `json:"reason"`
}

// outputItem is one OutputItem; only messages and function calls matter
// here, every other type (reasoning, tool calls of hosted tools) is
// skipped.
type outputItem struct {
	Type      string          `json:"type"`
	Content   []outputContent `json:"content"`   // message
	CallID    string          `json:"call_id"`   // function_call
	Name      string          `json:"name"`      // function_call
	Arguments string          `json:"arguments"` // function_call
}

// outputContent is an OutputMessageContent: output_text or refusal.
type outputContent struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Refusal string `json:"refusal"`
}

type usageWire struct {
	InputTokens        int64 `json:"input_tokens"`
	InputTokensDetails struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputTokens int64 `json:"output_tokens"`
	TotalTokens  int64 `json:"total_tokens"`
}

// streamEvent is one ResponseStreamEvent of a Codex stream, with the
// fields of the events consume acts on.
type streamEvent struct {
	Type        string     `json:"type"`
	OutputIndex int64      `json:"output_index"` // response.output_item.done
	Item        outputItem `json:"item"`         // response.output_item.done
	Response    response   `json:"response"`     // response.completed|failed|incomplete
	Code        string     `json:"code"`         // error
	Message     string     `json:"message"`      // error
}
