// Command mcptest-server serves the mcptest MCP server over stdio. With
// MCPTEST_EXIT_AT_START set it exits at once (a server that crashes as it
// starts); with MCPTEST_HANG_AT_START it never answers. With
// MCPTEST_HOLD_GROUP it starts a child (sleep) in its process group and,
// when its stdin closes, ignores the usual signals and stays: a server
// that only the parent-death signal and the process group kill remove.
package main

import (
	"context"
	"os"
	"os/exec"
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
	hold := os.Getenv("MCPTEST_HOLD_GROUP") != ""
	if hold {
		child := exec.Command("sleep", "600")
		if err := child.Start(); err != nil {
			os.Exit(1)
		}
		go func() { _ = child.Wait() }() // the process's lifetime: reaped if it ends
	}
	err := mcptest.NewServer().Run(context.Background(), &sdk.StdioTransport{})
	if hold {
		signal.Ignore(syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT, syscall.SIGPIPE)
		stay := make(chan os.Signal, 1)
		signal.Notify(stay, syscall.SIGUSR1) // never sent: stays until SIGKILL
		<-stay
	}
	if err != nil {
		os.Exit(1)
	}
}
