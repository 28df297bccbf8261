package bench

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/tools"
)

// echoTool is the name of the bench's only tool.
const echoTool = "echo"

// echoArguments are the arguments of every call benchProvider asks for,
// built once.
var echoArguments = json.RawMessage(`{"text":"nightly build: 3 failing tests"}`)

// benchProvider is a zero-latency providers.Provider with a fixed two-round
// turn: the first round of a turn asks for one echo call, the round after
// the call's result answers with the final text. It keeps no state, so one
// value serves every agent concurrently.
type benchProvider struct{}

// Name implements providers.Provider.
func (benchProvider) Name() string { return "bench/zero-latency" }

// Complete implements providers.Provider. It answers from the request
// alone: a conversation ending in a tool result gets the final text,
// anything else gets the tool call, whose id is unique per turn and round.
func (benchProvider) Complete(_ context.Context, req providers.Request) (providers.Response, error) {
	resp := providers.Response{
		StopReason: "end_turn",
		Usage:      messages.TokenUsage{InputTokens: 100, OutputTokens: 10, TotalTokens: 110},
		ResponseID: "resp_" + req.TurnID + "_" + strconv.FormatUint(uint64(req.Round), 10),
		Model:      "bench-1",
	}
	if n := len(req.Conversation); n > 0 && req.Conversation[n-1].Kind == providers.ItemToolResult {
		resp.Text = "The echo tool answered; the three failing tests are listed above."
		return resp, nil
	}
	resp.Text = "Checking with the echo tool."
	resp.StopReason = "tool_use"
	resp.ToolCalls = []messages.ToolCall{{
		ID:        "call_" + req.TurnID + "_" + strconv.FormatUint(uint64(req.Round), 10),
		Name:      echoTool,
		Arguments: echoArguments,
	}}
	return resp, nil
}

// benchEcho is an in-process tools.Tool that answers with its text. It
// keeps no state and is safe for concurrent use.
type benchEcho struct{}

// Spec implements tools.Tool.
func (benchEcho) Spec() tools.Spec {
	return tools.Spec{Name: echoTool, Description: "Echo the text back.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`)}
}

// Call implements tools.Tool.
func (benchEcho) Call(_ context.Context, args json.RawMessage) tools.Result {
	var in struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return tools.Failure(echoTool, messages.ToolError, tools.ToolError{Kind: tools.KindInvalidToolInput, Message: err.Error()})
	}
	return tools.Success(echoTool, "echo: "+in.Text, map[string]string{"text": in.Text})
}
