package actors_test

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/mcp"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/rs/zerolog"
)

// TestRuntimeCloseStopsMCPServerActors: the runtime's MCP servers are
// actors of its system; closing the runtime stops them, and each closes
// its server's process group.
func TestRuntimeCloseStopsMCPServerActors(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcptest-server")
	if out, err := exec.Command("go", "build", "-o", bin, "../internal/mcptest/mcptest-server").CombinedOutput(); err != nil {
		t.Fatalf("build test server: %v\n%s", err, out)
	}
	cfg, err := mcp.ParseConfig(json.RawMessage(`{"t":{"command":`+strconv.Quote(bin)+`}}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := mcp.NewManager(cfg, mcp.Options{Getenv: func(string) string { return "" }})
	t.Cleanup(func() { _ = m.Close() })
	rt, err := actors.NewRuntime(actors.AgentDeps{Store: persistence.NewMemStore(), Log: zerolog.Nop(), MCP: m}, actors.RuntimeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	list, err := rt.MCPTools(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for _, tool := range list {
		if tool.Spec().Name == "mcp__t__pid" {
			pid, _ = strconv.Atoi(tool.Call(ctx, nil).Receipt)
		}
	}
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		t.Fatalf("server pid %d not alive", pid)
	}
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("server %d after the runtime closed: %v, want gone", pid, err)
	}
	if st := rt.MCPServers(ctx, ""); len(st) != 1 || st[0].State != mcp.StateClosed {
		t.Fatalf("servers after the runtime closed = %+v, want t closed", st)
	}
}
