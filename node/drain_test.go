package node_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/node"
)

// slowTurn is a script whose turn runs a command of about 3 seconds, then
// answers "done.".
const slowTurn = `{"steps":[{"text":"working","tool_calls":[{"name":"ExecCommand","arguments":{"cmd":"sleep 3"}}]},{"text":"done."}],"then":"repeat"}`

// startSlow starts a node on home playing slowTurn, with the given
// shutdown timeout, and prompts its default agent; it returns once the
// command has started, so a turn is in flight.
func startSlow(t *testing.T, home string, log *logBuffer, timeout time.Duration) *node.Node {
	t.Helper()
	cfg := config(t, home, log)
	script := filepath.Join(t.TempDir(), "slow.json")
	if err := os.WriteFile(script, []byte(slowTurn), 0o600); err != nil {
		t.Fatal(err)
	}
	prov, err := node.NewModelProvider(cfg.Agents.Model, script, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Provider, cfg.ShutdownTimeout = prov, timeout
	n, err := node.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := control.NewUnixClient(n.Socket())
	defer c.Close()
	if _, err := c.Prompt(ctx, "main", control.PromptRequest{Text: "go"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Follow(ctx, "main", 0, func(ev control.StreamEvent) error {
		if ev.Provenance.Kind == messages.EventToolCallStarted {
			return control.ErrStop
		}
		return nil
	}); err != nil {
		t.Fatalf("no command started: %v", err)
	}
	return n
}

// TestShutdownWaitsForTurns: a shutdown lets the turn in flight finish
// within the timeout; the restarted agent has it settled.
func TestShutdownWaitsForTurns(t *testing.T) {
	home := t.TempDir()
	var log logBuffer
	n := startSlow(t, home, &log, time.Minute)
	if err := n.Shutdown(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "shutdown timeout") {
		t.Errorf("shutdown gave up on the turn:\n%s", log.String())
	}
	n2, err := node.Start(config(t, home, &log))
	if err != nil {
		t.Fatal(err)
	}
	defer n2.Shutdown()
	v, err := n2.Runtime().View(context.Background(), "main")
	if err != nil || v.Turn != nil || v.TotalModelRounds != 2 || v.LastClosure == nil {
		t.Errorf("after the drained shutdown: turn %+v, rounds %d, closure %+v, %v; want the turn settled in 2 rounds",
			v.Turn, v.TotalModelRounds, v.LastClosure, err)
	}
}

// TestShutdownTimeoutLeavesTurns: past the timeout the turn is left to
// resume at the next start, and the shutdown is still clean.
func TestShutdownTimeoutLeavesTurns(t *testing.T) {
	home := t.TempDir()
	var log logBuffer
	n := startSlow(t, home, &log, time.Second) // long enough for agents to answer whether they are busy
	if err := n.Shutdown(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "shutdown timeout: turns in flight resume at the next start") {
		t.Errorf("no shutdown-timeout warning:\n%s", log.String())
	}
	if _, err := os.Stat(runFile(t, home, node.CleanMarkerName)); err != nil {
		t.Errorf("clean-shutdown marker: %v", err)
	}
}
