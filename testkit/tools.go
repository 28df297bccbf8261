package testkit

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/holon-actors/holon-actors/tools"
)

// EchoTool answers with its arguments and counts its executions: the
// side effect a crash test must never see twice.
type EchoTool struct {
	mu    sync.Mutex
	calls []string
	// Gate, when set, holds each call until closed (or the context ends).
	Gate chan struct{}
}

// Spec implements tools.Tool.
func (e *EchoTool) Spec() tools.Spec {
	return tools.Spec{Name: "echo", Description: "Echo the text back.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`)}
}

// Call implements tools.Tool.
func (e *EchoTool) Call(ctx context.Context, args json.RawMessage) tools.Result {
	var in struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return tools.Failure("echo", "error", tools.ToolError{Kind: tools.KindInvalidToolInput, Message: err.Error()})
	}
	if e.Gate != nil {
		select {
		case <-e.Gate:
		case <-ctx.Done():
		}
	}
	e.mu.Lock()
	e.calls = append(e.calls, in.Text)
	e.mu.Unlock()
	return tools.Success("echo", "echo: "+in.Text, map[string]string{"text": in.Text})
}

// Executions returns the texts of every completed execution, in order.
func (e *EchoTool) Executions() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.calls...)
}
