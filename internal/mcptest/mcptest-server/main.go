// Command mcptest-server serves the mcptest MCP server over stdio. With
// MCPTEST_EXIT_AT_START set it exits at once (a server that crashes as it
// starts); with MCPTEST_HANG_AT_START it never answers.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/holon-actors/holon-actors/internal/mcptest"
)

func main() {
	if os.Getenv("MCPTEST_EXIT_AT_START") != "" {
		os.Exit(2)
	}
	if os.Getenv("MCPTEST_HANG_AT_START") != "" {
		hold := make(chan os.Signal, 1)
		signal.Notify(hold, syscall.SIGUSR1) // never sent: waits until killed
		<-hold
	}
	if err := mcptest.NewServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}
