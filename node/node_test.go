package node_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/node"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers/catalog"
	"github.com/holon-actors/holon-actors/providers/scripted"
	"github.com/holon-actors/holon-actors/secrets"
)

// logBuffer is a zerolog writer safe for the node's goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// config is a node on home playing a script that answers "done." to every
// prompt, logging to log.
func config(t *testing.T, home string, log *logBuffer) node.Config {
	t.Helper()
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`{"steps":[{"text":"done."}],"then":"repeat"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := catalog.Config{Model: scripted.Name}
	prov, err := node.NewModelProvider(cfg, script, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return node.Config{Home: home, Log: zerolog.New(log), Provider: prov, Secrets: secrets.NewRegistry(),
		Agents: node.AgentOptions{Model: cfg, SystemPrompt: "test", DefaultAgent: "main"}, DiskReserveMiB: 0,
		MaxEventStreams: 4, Fingerprint: "fp", Version: "test", ShutdownTimeout: 5 * time.Second}
}

func runFile(t *testing.T, home, name string) string {
	return filepath.Join(persistence.RunDir(home), name)
}

// TestStartServeShutdown starts a node on a real store and socket, runs a
// turn through the control API, asks it to shut down over the socket and
// checks what a clean stop leaves; a second start resumes without warning.
func TestStartServeShutdown(t *testing.T) {
	home := t.TempDir()
	var log logBuffer
	n, err := node.Start(config(t, home, &log))
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if want := runFile(t, home, node.SocketName); n.Socket() != want {
		t.Errorf("Socket() = %q, want %q", n.Socket(), want)
	}
	var rf node.RuntimeFile
	b, err := os.ReadFile(runFile(t, home, node.RuntimeFileName))
	if err != nil || json.Unmarshal(b, &rf) != nil {
		t.Fatalf("runtime.json = %s, %v", b, err)
	}
	if rf.PID != os.Getpid() || rf.SocketPath != n.Socket() || rf.ConfigFingerprint != "fp" || rf.Version != "test" {
		t.Errorf("runtime.json = %+v", rf)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := control.NewUnixClient(n.Socket())
	defer c.Close()
	if _, err := c.Prompt(ctx, "main", control.PromptRequest{Text: "hello"}); err != nil {
		t.Fatalf("Prompt: %v", err)
	}
	waitBrief(ctx, t, c, "done.")

	if err := c.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown over the socket: %v", err)
	}
	n.Wait(ctx) // returns once the shutdown request arrives
	if ctx.Err() != nil {
		t.Fatal("Wait returned on its context, not on the shutdown request")
	}
	if err := n.Shutdown(); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if !strings.Contains(log.String(), "shutdown requested over the control API") {
		t.Errorf("log lacks the shutdown request:\n%s", log.String())
	}
	if _, err := os.Stat(runFile(t, home, node.CleanMarkerName)); err != nil {
		t.Errorf("clean-shutdown marker: %v", err)
	}
	if _, err := os.Stat(runFile(t, home, node.RuntimeFileName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("runtime.json after a clean stop: %v, want it removed", err)
	}

	var again logBuffer
	n2, err := node.Start(config(t, home, &again))
	if err != nil {
		t.Fatalf("second Start: %v", err)
	}
	defer n2.Shutdown()
	if strings.Contains(again.String(), "did not shut down cleanly") {
		t.Errorf("a start after a clean stop warns of an unclean one:\n%s", again.String())
	}
	if _, err := os.Stat(runFile(t, home, node.CleanMarkerName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("clean-shutdown marker kept while running: %v", err)
	}
}

// waitBrief waits until the agent's brief says want.
func waitBrief(ctx context.Context, t *testing.T, c *control.Client, want string) {
	t.Helper()
	_, err := c.Follow(ctx, "main", 0, func(ev control.StreamEvent) error {
		if ev.Provenance.Kind == messages.EventBriefRecorded && strings.Contains(string(ev.Payload), want) {
			return control.ErrStop
		}
		return nil
	})
	if err != nil {
		t.Fatalf("no brief %q: %v", want, err)
	}
}

// TestStartAfterUncleanExitWarns: a home whose data directory exists but
// whose last run left no clean-shutdown marker is recovered with a warning.
func TestStartAfterUncleanExitWarns(t *testing.T) {
	home := t.TempDir()
	var log logBuffer
	n, err := node.Start(config(t, home, &log))
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Shutdown(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(runFile(t, home, node.CleanMarkerName)); err != nil { // as a crash leaves it
		t.Fatal(err)
	}
	var again logBuffer
	n2, err := node.Start(config(t, home, &again))
	if err != nil {
		t.Fatal(err)
	}
	defer n2.Shutdown()
	if !strings.Contains(again.String(), "the previous run did not shut down cleanly") {
		t.Errorf("no unclean-exit warning:\n%s", again.String())
	}
}

// TestStartFailures: a failed start says why, closes what it opened (the
// home can be started again) and records the failure, except when another
// runtime owns the home.
func TestStartFailures(t *testing.T) {
	home := t.TempDir()
	var log logBuffer
	bad := config(t, home, &log)
	bad.ScrubInterval = -time.Second
	if _, err := node.Start(bad); !errors.Is(err, node.ErrConfig) || !strings.Contains(err.Error(), "--scrub-interval -1s is negative") {
		t.Fatalf("Start with a negative scrub interval = %v, want ErrConfig naming the flag", err)
	}
	f := node.ReadFailure(home)
	if f == nil || f.Phase != "startup" || !strings.Contains(f.Summary, "--scrub-interval") {
		t.Fatalf("recorded failure = %+v, want the startup failure", f)
	}

	n, err := node.Start(config(t, home, &log))
	if err != nil {
		t.Fatalf("Start after a failed start: %v", err)
	}
	defer n.Shutdown()
	if f := node.ReadFailure(home); f != nil {
		t.Errorf("a healthy start kept the last failure %+v", f)
	}
	if _, err := node.Start(config(t, home, &log)); !errors.Is(err, persistence.ErrLocked) {
		t.Fatalf("second Start on a running home = %v, want persistence.ErrLocked", err)
	}
	if f := node.ReadFailure(home); f != nil {
		t.Errorf("a start refused by the lock recorded %+v in the owner's run directory", f)
	}
}
