package main

import (
	"context"
	"fmt"
	"os"

	"github.com/holon-actors/holon-actors/bench"
)

// benchMCPCmd runs bench.MCP against this binary's no-op MCP server.
type benchMCPCmd struct {
	benchFlags `embed:""`

	Calls int `help:"Timed no-op calls on each path (runtime and direct SDK client), interleaved; the medians are compared." default:"2000"`
}

// Run measures the MCP call overhead and prints the result.
func (c *benchMCPCmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(string) (any, [][2]string, error) {
		self, err := os.Executable()
		if err != nil {
			return nil, nil, err
		}
		cfg := bench.MCPConfig{Server: []string{self, "bench", "mcp-server"}, Calls: c.Calls}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.MCP(ctx, cfg)
		return r, [][2]string{
			{"workload", fmt.Sprintf("%d no-op calls per path over stdio", r.Calls)},
			{"through the runtime p50", fmt.Sprintf("%.1f µs", r.RuntimeP50Us)},
			{"direct SDK client p50", fmt.Sprintf("%.1f µs", r.DirectP50Us)},
			{"mcp call overhead ratio", fmt.Sprintf("%.2f (target <= 1.5)", r.MCPCallOverheadRatio)},
		}, err
	})
}

// benchMCPServerCmd is the no-op stdio MCP server bench mcp starts.
type benchMCPServerCmd struct{}

// Run serves until stdin closes.
func (benchMCPServerCmd) Run(ctx context.Context) error { return bench.ServeNoopMCP(ctx) }
