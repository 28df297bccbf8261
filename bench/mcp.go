package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/holon-actors/holon-actors/mcp"
	"github.com/holon-actors/holon-actors/messages"
)

// MCPConfig configures MCP: the stdio server to start (a no-op tool
// named noop) and how many timed calls each path makes.
type MCPConfig struct {
	Server []string // command and arguments
	Calls  int
}

// Validate reports a config that cannot run.
func (c MCPConfig) Validate() error {
	switch {
	case len(c.Server) == 0:
		return errors.New("no MCP server command")
	case c.Calls < 10:
		return fmt.Errorf("--calls %d: give at least 10", c.Calls)
	}
	return nil
}

// MCPResult compares a no-op MCP tool call made through the runtime's MCP
// path (the agent's tool: supervised session, argument checks, timeout,
// canonical envelope and receipt) with the same call made directly with
// the SDK's client, against two sessions of the same stdio server in the
// same run, calls interleaved.
type MCPResult struct {
	Calls                int     `json:"calls"`
	RuntimeP50Us         float64 `json:"runtime_p50_us"`
	DirectP50Us          float64 `json:"direct_p50_us"`
	MCPCallOverheadRatio float64 `json:"mcp_call_overhead_ratio"`
}

// MCP runs the comparison.
func MCP(ctx context.Context, cfg MCPConfig) (MCPResult, error) {
	m := mcp.NewManager(mcp.Config{Servers: map[string]mcp.ServerConfig{"b": {Command: cfg.Server[0], Args: cfg.Server[1:]}}},
		mcp.Options{Getenv: func(string) string { return "" }})
	defer m.Close()
	tool, ok := m.Tool("bench", mcp.ToolName("b", "noop"))
	if !ok {
		return MCPResult{}, errors.New("no noop tool")
	}
	if _, err := m.ServerTools(ctx, "b"); err != nil {
		return MCPResult{}, fmt.Errorf("start the runtime's session: %w", err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(cfg.Server[0], cfg.Server[1:]...)}, nil)
	if err != nil {
		return MCPResult{}, fmt.Errorf("start the direct session: %w", err)
	}
	defer cs.Close()
	args := json.RawMessage(`{}`)
	var viaRuntime, direct []time.Duration
	for i := range cfg.Calls + cfg.Calls/10 { // the first tenth warms up
		t0 := time.Now()
		if res := tool.Call(ctx, args); res.Status != messages.ToolOK {
			return MCPResult{}, fmt.Errorf("runtime call: %s", res.Receipt)
		}
		t1 := time.Now()
		if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "noop", Arguments: map[string]any{}}); err != nil {
			return MCPResult{}, fmt.Errorf("direct call: %w", err)
		}
		t2 := time.Now()
		if i >= cfg.Calls/10 {
			viaRuntime, direct = append(viaRuntime, t1.Sub(t0)), append(direct, t2.Sub(t1))
		}
	}
	r := MCPResult{Calls: cfg.Calls, RuntimeP50Us: p50us(viaRuntime), DirectP50Us: p50us(direct)}
	if r.DirectP50Us > 0 {
		r.MCPCallOverheadRatio = r.RuntimeP50Us / r.DirectP50Us
	}
	return r, nil
}

func p50us(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2].Nanoseconds()) / 1e3
}

// ServeNoopMCP serves, over stdin and stdout, an MCP server with the one
// tool noop that answers "ok": the server bench MCP starts.
func ServeNoopMCP(ctx context.Context) error {
	s := sdk.NewServer(&sdk.Implementation{Name: "noop", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "noop", Description: "Do nothing.", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
		})
	return s.Run(ctx, &sdk.StdioTransport{})
}
